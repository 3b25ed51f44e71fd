import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Settings → Export and Settings → Import driven without sockets: the
/// pages, the downloads' headers, the forgery checks of a multipart form,
/// every refusal of an upload (nothing changed, nothing kept), and the
/// pending import's life: preview, Confirm (once, all or nothing), Cancel,
/// a later upload, expiry.
@Suite struct ImportExportTests {
  // MARK: Helpers

  /// The visitor's directory, from the cookie the harness keeps.
  static func owner(_ browser: ApplicationHarness) throws -> VisitorDirectory {
    let cookie = try #require(browser.cookies["visitor"])
    return VisitorDirectory(
      dataDirectory: browser.data, visitorID: String(cookie.split(separator: ".")[0]))
  }

  /// A visitor who has made one change (a list "Home" with "milk").
  static func visitor() throws -> ApplicationHarness {
    let browser = try ApplicationHarness()
    #expect(browser.post("/lists/1/items", [("text", "milk")]).status == 303)
    return browser
  }

  static let trip = ImportedList(
    name: "Trip", icon: .trips, sort: .dueDate,
    items: [
      ImportedItem(
        text: "Passport", checked: true, dueDate: Date(timeIntervalSince1970: 1_900_000_000),
        shouldRemind: true),
      ImportedItem(text: "Tickets"),
    ])
  static let chores = ImportedList(
    name: "  Chores\u{7} ", icon: .chores, items: [ImportedItem(text: "Dishes")])

  /// An upload's result as the upload leaves it: the owner's pending import.
  @discardableResult
  static func pend(
    _ lists: [ImportedList], for browser: ApplicationHarness, created: Date = Date(),
    fileName: String = "lists.json"
  ) throws -> String {
    let owner = try owner(browser)
    let imports = PendingImports(durable: false)
    return try imports.withLock(owner) {
      try imports.save(
        PendingImport(created: created, fileName: fileName, format: "json", lists: lists),
        for: owner)
    }
  }

  static func pendingPath(_ browser: ApplicationHarness) throws -> String {
    PendingImports.path(of: try owner(browser))
  }

  static func digest(in page: String) -> String? {
    page.firstMatch(of: #/name="digest" value="([0-9a-f]{64})"/#).map { String($0.1) }
  }

  static func model(_ browser: ApplicationHarness) throws -> DataModel {
    try #require(try browser.application.store.load(try owner(browser)))
  }

  // MARK: Pages

  @Test func settingsLinksToExportAndImport() throws {
    let browser = try ApplicationHarness()
    let page = browser.text(browser.get("/settings"))
    #expect(page.contains(#"href="/settings/export""#))
    #expect(page.contains(#"href="/settings/import""#))
  }

  @Test func theExportPageOffersEachFormatWithWhatItHolds() throws {
    let browser = try ApplicationHarness()
    let response = browser.get("/settings/export")
    #expect(response.status == 200)
    let page = browser.text(response)
    for address in [
      "/settings/export/checklists.json", "/settings/export/checklists.md",
      "/settings/export/checklists.ics", "/settings/export/Checklists.plist",
    ] {
      #expect(page.contains(#"href="\#(address)""#), "\(address)")
    }
    for words in ["JSON", "Markdown", "iCalendar", "Checklists.plist", "- [x]", "due date"] {
      #expect(page.contains(words), "\(words)")
    }
    #expect(!page.contains("<form"))
  }

  @Test func theImportPageHasALabelledFileInputOfTheFormats() throws {
    let browser = try ApplicationHarness()
    let response = browser.get("/settings/import")
    #expect(response.status == 200)
    let page = browser.text(response)
    #expect(page.contains(#"enctype="multipart/form-data""#))
    #expect(page.contains(#"<label for="import-file">"#))
    #expect(page.contains(#"type="file" id="import-file" name="file""#))
    #expect(page.contains(#"accept=".json,.md,.markdown,.txt,.plist,"#))
    #expect(page.contains(#"name="csrf" value=""#))
    #expect(page.contains("At most 1 MB"))
    #expect(!page.contains("waits for your Confirm"))
  }

  // MARK: Downloads

  @Test func theStoredPropertyListIsDownloadedByteForByte() throws {
    let browser = try Self.visitor()
    let stored = try Data(contentsOf: URL(fileURLWithPath: try Self.owner(browser).checklistsPath))
    let response = browser.get("/settings/export/Checklists.plist")
    #expect(response.status == 200)
    #expect(Data(response.body) == stored)
    #expect(response.headerFields[.contentType] == "application/x-plist")
    #expect(response.headerFields[.cacheControl] == "no-store")
    #expect(response.headerFields[.xContentTypeOptions] == "nosniff")
    let disposition = try #require(response.headerFields[.contentDisposition])
    #expect(
      disposition.wholeMatch(of: #/attachment; filename="checklists-\d{4}-\d{2}-\d{2}\.plist"/#)
        != nil, "\(disposition)")
  }

  @Test func beforeTheFirstChangeThePropertyListIsWhatItWouldStore() throws {
    let browser = try ApplicationHarness()
    let response = browser.get("/settings/export/Checklists.plist")
    #expect(response.status == 200)
    let model = try ChecklistsFile.decode(Data(response.body))
    #expect(model.lists.map(\.name) == ["List"])
    // Nothing was stored by the download.
    #expect(browser.storedFiles().isEmpty)
    // And it is what the first change then stores, less that change.
    browser.post("/lists/1/items", [("text", "milk")])
    let stored = try Self.model(browser)
    #expect(stored.lists.map(\.id) == model.lists.map(\.id))
    #expect(stored.lists.map(\.name) == model.lists.map(\.name))
    #expect(stored.lists[0].items.map(\.text) == ["milk"])
  }

  @Test(arguments: [
    ("checklists.json", "application/json", "json"),
    ("checklists.md", "text/markdown; charset=utf-8; variant=GFM", "md"),
    ("checklists.ics", "text/calendar; charset=utf-8", "ics"),
    ("Checklists.plist", "application/x-plist", "plist"),
  ])
  func everyDownloadIsAnAttachmentNamedForTheVisitorsDay(
    name: String, contentType: String, fileExtension: String
  ) throws {
    let browser = try Self.visitor()
    // Kiritimati is 14 hours ahead of UTC: most hours, its day is not UTC's.
    browser.post("/settings", [("TimeZone", "Pacific/Kiritimati")])
    let day = { () -> String in
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "Pacific/Kiritimati")!
      let parts = calendar.dateComponents([.year, .month, .day], from: Date())
      return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
    let before = day()
    let response = browser.get("/settings/export/\(name)")
    let after = day()
    #expect(response.status == 200)
    #expect(response.headerFields[.contentType] == contentType)
    #expect(response.headerFields[.cacheControl] == "no-store")
    #expect(response.headerFields[.xContentTypeOptions] == "nosniff")
    let disposition = try #require(response.headerFields[.contentDisposition])
    #expect(
      [before, after].map { "attachment; filename=\"checklists-\($0).\(fileExtension)\"" }
        .contains(disposition), "\(disposition)")
    #expect(!response.body.isEmpty)
    // HEAD: the same headers, no body.
    let head = browser.get("/settings/export/\(name)", method: .head)
    #expect(head.status == 200)
    #expect(head.headerFields[.contentDisposition] == disposition)
  }

  @Test func aDownloadIsNeverKeptByTheMemo() throws {
    let browser = try Self.visitor()
    let first = browser.get("/settings/export/Checklists.plist").body
    browser.post("/lists/1/items", [("text", "bread")])
    let second = browser.get("/settings/export/Checklists.plist").body
    #expect(first != second)
    #expect(String(decoding: second, as: UTF8.self).contains("bread"))
    #expect(
      RouteTable.checklists.routes.filter(\.isRevisited).allSatisfy {
        !$0.pattern.description.hasPrefix("/settings")
      })
  }

  // MARK: Forgery checks on a multipart form

  @Test func anUploadWithoutTheVisitorsTokenIsRefused() throws {
    let browser = try Self.visitor()
    let other = try Self.visitor()
    let before = browser.storedFiles()
    let file = ("lists.json", Array(#"{"lists": []}"#.utf8))
    #expect(browser.postMultipart(file: file, withToken: false).status == 403)
    #expect(
      browser.postMultipart(file: file, token: String(repeating: "0", count: 64)).status == 403)
    #expect(browser.postMultipart(file: file, token: "not hex").status == 403)
    #expect(browser.postMultipart(file: file, token: other.csrf()).status == 403)
    // The token twice, the second smuggled: the first counts.
    #expect(
      browser.postMultipart(file: file, token: "bad", extra: [("csrf", browser.csrf())]).status
        == 403)
    // Another site's page, by the browser's word.
    #expect(
      browser.postMultipart(
        file: file, headerFields: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
      ).status == 403)
    #expect(
      browser.postMultipart(file: file, headerFields: [.origin: "http://evil.example"]).status
        == 403)
    // A browser without a cookie has no token at all.
    let stranger = browser.anotherCookieJar()
    #expect(stranger.postMultipart(file: file, token: browser.csrf()).status == 403)
    #expect(browser.storedFiles() == before)
  }

  // MARK: Bad input

  /// Every refusal answers the import page with its reason and status,
  /// changes nothing and keeps nothing.
  @Test func badUploadsAreRefusedOnTheImportPageChangingNothing() throws {
    let browser = try Self.visitor()
    try Self.pend([Self.trip], for: browser)  // an earlier upload waiting: left as it was
    let before = browser.storedFiles()
    let token = browser.csrf()
    let cases: [(String, Response, Int, String)] = [
      (
        "urlencoded", browser.post("/settings/import", [("file", "x")], token: token), 415,
        "did not arrive as a file upload"
      ),
      (
        "no boundary",
        browser.postMultipart(
          file: ("a.json", [1]), token: token,
          headerFields: [.contentType: "multipart/form-data"]), 400, "could not be read"
      ),
      (
        "cut short",
        browser.send(
          Request(
            method: .post, path: "/settings/import",
            headerFields: [.contentType: "multipart/form-data; boundary=b"],
            body: Array("--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)".utf8)
          )
        ), 400, "could not be read"
      ),
      ("no file part", browser.postMultipart(file: nil, token: token), 400, "No file was chosen"),
      (
        "no file chosen", browser.postMultipart(file: ("", []), token: token), 400,
        "No file was chosen"
      ),
      (
        "another field",
        browser.postMultipart(file: ("a.json", [1]), token: token, extra: [("name", "x")]), 400,
        "a field this page does not send (“name”)"
      ),
      (
        "two files",
        browser.postMultipart(
          file: ("a.json", [1]), token: token, extra: [("file", "second")]), 400,
        "one file at a time"
      ),
      ("empty file", browser.postMultipart(file: ("empty.md", []), token: token), 422, "is empty"),
      (
        "none of ours",
        browser.postMultipart(file: ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00]), token: token),
        415, "none of the formats this site imports"
      ),
      (
        "too large (the server's flag)",
        browser.send(
          Request(
            method: .post, path: "/settings/import",
            headerFields: [.contentType: "multipart/form-data; boundary=b"], bodyTooLarge: true)),
        413, "larger than 1 MB"
      ),
      (
        "too large (read whole)",
        browser.postMultipart(
          file: ("big.md", Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)),
          token: token), 413, "larger than 1 MB"
      ),
    ]
    for (name, response, status, words) in cases {
      #expect(response.status.code == status, "\(name)")
      let page = browser.text(response)
      #expect(page.contains("<h1>Import</h1>"), "\(name)")
      #expect(page.contains(#"class="error""#) && page.contains(words), "\(name)")
      #expect(page.contains("Nothing was changed."), "\(name)")
      #expect(response.headerFields[.cacheControl] == "no-store", "\(name)")
      #expect(browser.storedFiles() == before, "\(name)")
    }
  }

  @Test func aParsersFailureIsShownAsItSaysIt() throws {
    let browser = try Self.visitor()
    let before = browser.storedFiles()
    let response = browser.postMultipart(file: ("broken.json", Array("{not json".utf8)))
    #expect(response.status == 422)
    let page = browser.text(response)
    #expect(page.contains("JSON"))
    #expect(page.contains("Nothing was changed."))
    #expect(browser.storedFiles() == before)
  }

  // MARK: Uploads of real files

  /// A JSON export of another visitor, uploaded: `303` to the preview, the
  /// lists kept as the pending import (the file itself nowhere), then
  /// confirmed into the same lists beside the visitor's own.
  @Test func anotherVisitorsJSONExportIsUploadedPreviewedAndConfirmed() throws {
    let exporter = try Self.visitor()
    exporter.post("/lists", [("name", "Trip"), ("icon", "trips")])
    exporter.post("/lists/2/items", [("text", "Passport")])
    let file = exporter.get("/settings/export/checklists.json").body
    let importer = try Self.visitor()
    let uploaded = importer.postMultipart(file: ("checklists.json", file))
    #expect(uploaded.status == 303)
    #expect(uploaded.headerFields[.location] == "/settings/import/preview")
    let pending = try #require(try PendingImports().load(of: try Self.owner(importer))).pending
    #expect(pending.fileName == "checklists.json" && pending.format == "json")
    #expect(pending.lists.map(\.name) == ["List", "Trip"])
    #expect(!importer.storedFiles().values.contains(Data(file)))
    let page = importer.text(importer.get("/settings/import/preview"))
    #expect(page.contains("2 lists with 2 items"))
    let digest = try #require(Self.digest(in: page))
    #expect(importer.post("/settings/import/confirm", [("digest", digest)]).status == 303)
    let names = try Self.model(importer).lists.map(\.name)
    #expect(names.sorted() == ["List", "List", "Trip"])
    let trip = try #require(try Self.model(importer).lists.first { $0.name == "Trip" })
    #expect(trip.icon == .trips && trip.items.map(\.text) == ["Passport"])
  }

  @Test func theNextUploadReplacesTheWaitingOne() throws {
    let browser = try Self.visitor()
    #expect(browser.postMultipart(file: ("a.md", Array("# A\n- [ ] a\n".utf8))).status == 303)
    #expect(browser.postMultipart(file: ("b.md", Array("# B\n- [x] b\n".utf8))).status == 303)
    let pending = try #require(try PendingImports().load(of: try Self.owner(browser))).pending
    #expect(pending.fileName == "b.md" && pending.format == "markdown")
    #expect(
      pending.lists == [ImportedList(name: "B", items: [ImportedItem(text: "b", checked: true)])])
  }

  /// What the model would refuse is refused at the upload already, naming
  /// the list and item, and nothing is kept.
  @Test func anUploadTheModelRefusesKeepsNothing() throws {
    let browser = try Self.visitor()
    let before = browser.storedFiles()
    let long = String(repeating: "x", count: Limits.maximumTextLength + 1)
    let response = browser.postMultipart(file: ("long.md", Array("# Long\n- [ ] \(long)\n".utf8)))
    #expect(response.status == 422)
    #expect(browser.text(response).contains("Item 1 of list 1 (“Long”) cannot be imported."))
    #expect(browser.storedFiles() == before)
  }

  @Test func aFileNameIsKeptToItsFirst255Characters() throws {
    let browser = try Self.visitor()
    let name = String(repeating: "n", count: 2_000) + ".md"
    #expect(browser.postMultipart(file: (name, Array("- [ ] a\n".utf8))).status == 303)
    let pending = try #require(try PendingImports().load(of: try Self.owner(browser))).pending
    #expect(pending.fileName == String(repeating: "n", count: 255))
    // Tasks before any heading go to a list named for the file.
    #expect(pending.lists.map(\.name) == [String(repeating: "n", count: 255)])
  }

  // MARK: The pending import

  @Test func thePreviewShowsEachListAndConfirmsExactlyIt() throws {
    let browser = try Self.visitor()
    let digest = try Self.pend([Self.trip, Self.chores], for: browser)
    let response = browser.get("/settings/import/preview")
    #expect(response.status == 200)
    let page = browser.text(response)
    #expect(page.contains("<h1>Import Preview</h1>"))
    #expect(page.contains("“lists.json” (JSON)"))
    #expect(page.contains("2 lists with 3 items"))
    #expect(page.contains("Trip"))
    #expect(page.contains("2 items: 1 checked, 1 with a due date; shown by due date"))
    #expect(page.contains("1 item: none checked"))
    // Names as they will be added: cleaned.
    #expect(page.contains(#"<span class="row-title">Chores</span>"#))
    #expect(Self.digest(in: page) == digest)
    #expect(page.contains("Confirm Import"))
    #expect(page.contains(#"action="/settings/import/cancel""#))
    // The import page says an upload waits.
    #expect(browser.text(browser.get("/settings/import")).contains("waits for your Confirm"))
    // Nothing was added by the preview.
    #expect(try Self.model(browser).lists.map(\.name) == ["List"])

    let confirmed = browser.post("/settings/import/confirm", [("digest", digest)])
    #expect(confirmed.status == 303)
    #expect(confirmed.headerFields[.location] == "/lists?imported=2&items=3")
    let model = try Self.model(browser)
    #expect(Set(model.lists.map(\.name)) == ["List", "Trip", "Chores"])
    let trip = try #require(model.lists.first { $0.name == "Trip" })
    #expect(trip.icon == .trips && trip.sort == .dueDate)
    #expect(trip.items.map(\.text) == ["Passport", "Tickets"])
    #expect(trip.items.map(\.checked) == [true, false])
    #expect(trip.items[0].dueDate == Date(timeIntervalSince1970: 1_900_000_000))
    #expect(trip.items[0].shouldRemind)
    // New ids, beside the existing ones.
    #expect(Set(model.lists.map(\.id)).count == 3)
    #expect(!FileManager.default.fileExists(atPath: try Self.pendingPath(browser)))
    let lists = browser.text(browser.get("/lists?imported=2&items=3"))
    #expect(lists.contains("Imported 2 lists with 3 items."))
  }

  @Test func confirmSentAgainAddsNothingMore() throws {
    let browser = try Self.visitor()
    let digest = try Self.pend([Self.trip], for: browser)
    #expect(browser.post("/settings/import/confirm", [("digest", digest)]).status == 303)
    let again = browser.post("/settings/import/confirm", [("digest", digest)])
    #expect(again.status == 303)
    #expect(again.headerFields[.location] == "/settings/import?nothing-waiting")
    #expect(
      browser.text(browser.get("/settings/import?nothing-waiting")).contains("Nothing is waiting"))
    #expect(try Self.model(browser).lists.count == 2)
  }

  /// Confirms of one preview sent at once (a double click, two tabs)
  /// add its lists once: the import lock holds Confirm's write and the
  /// removal of the pending file together.
  @Test func concurrentConfirmsOfOnePreviewApplyOnce() throws {
    let browser = try Self.visitor()
    let token = browser.csrf()
    let cookies = browser.cookies
    for round in 0..<5 {
      let digest = try Self.pend([ImportedList(name: "Round \(round)")], for: browser)
      let statuses = LockedStatuses()
      let jars = (0..<6).map { _ in browser.anotherCookieJar(cookies) }
      nonisolated(unsafe) let shared = jars
      DispatchQueue.concurrentPerform(iterations: 6) { index in
        let jar = shared[index]
        let response = jar.post("/settings/import/confirm", [("digest", digest)], token: token)
        statuses.append(response.status.code, response.headerFields[.location] ?? "")
      }
      let answers = statuses.values
      #expect(answers.filter { $0.1.hasPrefix("/lists?imported=1") }.count == 1, "\(answers)")
      // The others found nothing waiting, or were told to try again (503).
      #expect(
        answers.allSatisfy {
          $0.1.hasPrefix("/lists?imported=1") || $0.1 == "/settings/import?nothing-waiting"
            || $0.0 == 503
        }, "\(answers)")
      #expect(try Self.model(browser).lists.filter { $0.name == "Round \(round)" }.count == 1)
    }
  }

  @Test func aPreviewReplacedByALaterUploadIsNotConfirmed() throws {
    let browser = try Self.visitor()
    let old = try Self.pend([Self.trip], for: browser)
    let new = try Self.pend([Self.chores], for: browser)
    #expect(old != new)
    let before = browser.storedFiles()
    let response = browser.post("/settings/import/confirm", [("digest", old)])
    #expect(response.status == 409)
    #expect(browser.text(response).contains("Another file was uploaded after that preview"))
    #expect(browser.storedFiles() == before)  // the newer one still waits
    #expect(browser.post("/settings/import/confirm", [("digest", new)]).status == 303)
    #expect(try Self.model(browser).lists.map(\.name).contains("Chores"))
    let names = try Self.model(browser).lists.map(\.name)
    #expect(!names.contains("Trip"))
  }

  @Test func aConfirmWithoutItsDigestOrTokenChangesNothing() throws {
    let browser = try Self.visitor()
    try Self.pend([Self.trip], for: browser)
    let before = browser.storedFiles()
    #expect(browser.post("/settings/import/confirm", []).status == 409)
    #expect(browser.post("/settings/import/confirm", [("digest", "x")]).status == 409)
    let digest = try #require(
      Self.digest(in: browser.text(browser.get("/settings/import/preview"))))
    #expect(
      browser.post("/settings/import/confirm", [("digest", digest)], withToken: false).status == 403
    )
    #expect(browser.post("/settings/import/cancel", [], withToken: false).status == 403)
    #expect(browser.storedFiles() == before)
  }

  @Test func cancelDropsThePendingImport() throws {
    let browser = try Self.visitor()
    let digest = try Self.pend([Self.trip], for: browser)
    let cancelled = browser.post("/settings/import/cancel")
    #expect(cancelled.status == 303)
    #expect(cancelled.headerFields[.location] == "/settings/import?cancelled")
    #expect(browser.text(browser.get("/settings/import?cancelled")).contains("Import cancelled."))
    #expect(!FileManager.default.fileExists(atPath: try Self.pendingPath(browser)))
    #expect(
      browser.post("/settings/import/confirm", [("digest", digest)]).headerFields[.location]
        == "/settings/import?nothing-waiting")
    #expect(try Self.model(browser).lists.count == 1)
    // A second Cancel finds nothing and says the same.
    #expect(browser.post("/settings/import/cancel").status == 303)
  }

  @Test func anImportExpiresAfterAnHour() throws {
    let browser = try Self.visitor()
    let digest = try Self.pend([Self.trip], for: browser, created: Date() - 3_601)
    let preview = browser.get("/settings/import/preview")
    #expect(preview.status == 200)
    #expect(browser.text(preview).contains("waited more than an hour"))
    #expect(Self.digest(in: browser.text(preview)) == nil)
    #expect(!browser.text(browser.get("/settings/import")).contains("waits for your Confirm"))
    let confirmed = browser.post("/settings/import/confirm", [("digest", digest)])
    #expect(confirmed.status == 410)
    #expect(browser.text(confirmed).contains("waited more than an hour"))
    #expect(!FileManager.default.fileExists(atPath: try Self.pendingPath(browser)))
    #expect(try Self.model(browser).lists.count == 1)
  }

  @Test func nothingWaitingShowsTheImportPage() throws {
    let browser = try Self.visitor()
    let response = browser.get("/settings/import/preview")
    #expect(response.status == 200)
    #expect(browser.text(response).contains("Nothing is waiting to be imported"))
    #expect(browser.text(response).contains(#"type="file""#))
    // An unreadable pending file is nothing waiting, and Confirm removes it.
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: try Self.pendingPath(browser)))
    #expect(browser.text(browser.get("/settings/import/preview")).contains("Nothing is waiting"))
    #expect(
      browser.post("/settings/import/confirm", [("digest", "x")]).headerFields[.location]
        == "/settings/import?nothing-waiting")
    #expect(!FileManager.default.fileExists(atPath: try Self.pendingPath(browser)))
  }

  /// The model's refusal (here a list past 5,000 items) shows on the
  /// preview, which then offers no Confirm; a Confirm sent anyway adds
  /// nothing, says why on the import page and drops the import.
  @Test func aRefusalShowsOnThePreviewAndConfirmAddsNothing() throws {
    let browser = try Self.visitor()
    let huge = ImportedList(
      name: "Huge",
      items: Array(repeating: ImportedItem(text: "x"), count: Limits.maximumItemsPerList + 1))
    let digest = try Self.pend([Self.chores, huge], for: browser)
    let page = browser.text(browser.get("/settings/import/preview"))
    #expect(page.contains("Item 5001 of list 2 (“Huge”) cannot be imported."))
    #expect(!page.contains("Confirm Import"))
    #expect(page.contains(#"action="/settings/import/cancel""#))
    let before = try Self.model(browser)
    let response = browser.post("/settings/import/confirm", [("digest", digest)])
    #expect(response.status == 422)
    #expect(browser.text(response).contains("Item 5001 of list 2 (“Huge”) cannot be imported."))
    #expect(browser.text(response).contains("Nothing was changed."))
    #expect(try Self.model(browser) == before)  // all or nothing: not even Chores
    #expect(!FileManager.default.fileExists(atPath: try Self.pendingPath(browser)))
  }

  @Test func theImportNoticeReadsOnlyItsOwnQuery() {
    #expect(ImportNotice.message(query: "imported=1&items=1") == "Imported 1 list with 1 item.")
    #expect(
      ImportNotice.message(query: "imported=3&items=12500")
        == "Imported 3 lists with 12,500 items.")
    #expect(ImportNotice.message(query: "imported=2&items=0") == "Imported 2 lists with 0 items.")
    for query in ["", "imported=0&items=1", "imported=x&items=1", "imported=1", "deleted=3"] {
      #expect(ImportNotice.message(query: query) == nil, "\(query)")
    }
  }
}

/// Statuses and locations gathered from several threads.
final class LockedStatuses: @unchecked Sendable {
  private let lock = NSLock()
  private var gathered: [(Int, String)] = []

  func append(_ status: Int, _ location: String) {
    lock.withLock { gathered.append((status, location)) }
  }

  var values: [(Int, String)] { lock.withLock { gathered } }
}
