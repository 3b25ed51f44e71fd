import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Logging
import Storage
import TestSupport
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Sharing a list by a secret link: made and revoked on Edit List, the
/// shared page answered without a visitor, a read-only link that changes
/// nothing, an edit link confined to its list's items, and the headers,
/// conditional requests and forgery checks of every shared answer.
@Suite struct SharingTests {
  static var link: Regex<(Substring, Substring)> { #/value="[^"]*/s/([0-9a-f]{32})"/# }
  static var formToken: Regex<(Substring, Substring)> { #/name="csrf" value="([0-9a-f]{64})"/# }

  /// An owner with two lists: `Groceries` (Milk, Bread) and `Work`
  /// (Report), and the ids of their items.
  struct Owner {
    let browser: ApplicationHarness
    let groceries: Int
    let work: Int
    let milk: Int
    let bread: Int
    let report: Int
  }

  static func owner() throws -> Owner {
    let browser = try ApplicationHarness()
    let groceries = try createList(browser, "Groceries")
    let work = try createList(browser, "Work")
    #expect(browser.post("/lists/\(groceries)/items", [("text", "Milk")]).status == 303)
    #expect(browser.post("/lists/\(groceries)/items", [("text", "Bread")]).status == 303)
    #expect(browser.post("/lists/\(work)/items", [("text", "Report")]).status == 303)
    let model = try #require(try store(browser).load(directory(of: browser)))
    func id(_ list: Int, _ text: String) throws -> Int {
      try #require(model.checklist(id: list)?.items.first { $0.text == text }?.id)
    }
    return Owner(
      browser: browser, groceries: groceries, work: work, milk: try id(groceries, "Milk"),
      bread: try id(groceries, "Bread"), report: try id(work, "Report"))
  }

  static func createList(_ browser: ApplicationHarness, _ name: String) throws -> Int {
    let response = browser.post("/lists", [("name", name), ("icon", "groceries")])
    let location = try #require(response.headerFields[.location])
    return try #require(Int(location.split(separator: "/").last ?? ""))
  }

  static func store(_ browser: ApplicationHarness) -> ChecklistStore {
    ChecklistStore(
      configuration: .init(dataDirectory: browser.data, durable: false),
      logger: Logger(label: "test"))
  }

  static func directory(of browser: ApplicationHarness) throws -> VisitorDirectory {
    let cookie = try #require(browser.cookies["visitor"])
    return VisitorDirectory(
      dataDirectory: browser.data, visitorID: String(cookie.split(separator: ".")[0]))
  }

  /// Makes the link of `kind` from Edit List and reads it back from there.
  static func share(_ browser: ApplicationHarness, list: Int, _ kind: String) throws -> String {
    let made = browser.post("/lists/\(list)/share/\(kind)")
    #expect(made.status == 303)
    #expect(made.headerFields[.location] == "/lists/\(list)/edit#share")
    return try #require(shownLinks(browser, list: list)[kind])
  }

  /// The links Edit List shows, by kind.
  static func shownLinks(_ browser: ApplicationHarness, list: Int) throws -> [String: String] {
    let page = browser.text(browser.get("/lists/\(list)/edit"))
    var links: [String: String] = [:]
    for kind in ["read-only", "edit"] {
      if let field = page.firstMatch(of: Regex<Substring>(verbatim: "id=\"share-\(kind)\"")) {
        let after = page[field.range.lowerBound...]
        links[kind] = after.firstMatch(of: link).map { String($0.output.1) }
      }
    }
    return links
  }

  /// A request with no cookie at all, as from someone else's browser.
  static func stranger(_ browser: ApplicationHarness, _ request: Request) -> Response {
    #expect(!request.headerFields.contains(.cookie))
    return browser.application.respond(to: request)
  }

  static func get(_ browser: ApplicationHarness, _ path: String, _ fields: HTTPFields = [:])
    -> Response
  {
    stranger(browser, Request(method: .get, path: path, headerFields: fields))
  }

  /// A form posted with no cookie, `csrf` added unless given.
  static func post(
    _ browser: ApplicationHarness, _ path: String, _ fields: [(String, String)] = [],
    csrf: String?, headerFields: HTTPFields = [:], authority: String? = nil
  ) -> Response {
    var fields = fields
    if let csrf { fields.append(("csrf", csrf)) }
    let body = fields.map {
      "\(ApplicationHarness.encode($0.0))=\(ApplicationHarness.encode($0.1))"
    }.joined(separator: "&")
    var headerFields = headerFields
    headerFields[.contentType] = "application/x-www-form-urlencoded"
    return stranger(
      browser,
      Request(
        method: .post, path: path, authority: authority, headerFields: headerFields,
        body: Array(body.utf8)))
  }

  /// The form token a shared page carries.
  static func formToken(_ browser: ApplicationHarness, _ token: String) throws -> String {
    let page = browser.text(get(browser, "/s/\(token)"))
    return try #require(page.firstMatch(of: formToken).map { String($0.output.1) })
  }

  static func expectSharedHeaders(_ response: Response, _ comment: Comment? = nil) {
    #expect(response.headerFields[.referrerPolicy] == "no-referrer", comment)
    #expect(response.headerFields[.xRobotsTag]?.contains("noindex") == true, comment)
    #expect(response.headerFields[.cacheControl] == "private, no-cache", comment)
    #expect(response.headerFields[.contentSecurityPolicy] != nil, comment)
    #expect(!response.headerFields.contains(.setCookie), comment)
  }

  static func model(_ owner: Owner) throws -> DataModel {
    try #require(try store(owner.browser).load(directory(of: owner.browser)))
  }

  // MARK: Making and showing links

  @Test func editListMakesShowsAndRevokesEachLink() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let edit = browser.text(browser.get("/lists/\(owner.groceries)/edit"))
    #expect(edit.contains("Create Read-Only Link") && edit.contains("Create Edit Link"))
    let reader = try Self.share(browser, list: owner.groceries, "read-only")
    #expect(try Self.shownLinks(browser, list: owner.groceries) == ["read-only": reader])
    let editor = try Self.share(browser, list: owner.groceries, "edit")
    #expect(reader != editor)
    #expect(
      try Self.shownLinks(browser, list: owner.groceries) == [
        "read-only": reader, "edit": editor,
      ])
    // Made again (the form sent twice): the same link.
    #expect(try Self.share(browser, list: owner.groceries, "edit") == editor)
    // Absolute, from the request's origin, with a Copy button.
    let page = browser.text(
      browser.send(
        Request(method: .get, path: "/lists/\(owner.groceries)/edit", authority: "lists.example")))
    #expect(page.contains("value=\"http://lists.example/s/\(editor)\""))
    #expect(page.contains("data-copy=\"share-edit\""))
    // The other list has none.
    #expect(try Self.shownLinks(browser, list: owner.work).isEmpty)

    let revoked = browser.post("/lists/\(owner.groceries)/share/edit/revoke")
    #expect(
      revoked.headerFields[.location] == "/lists/\(owner.groceries)/edit?link-revoked=edit#share")
    let after = browser.text(browser.get("/lists/\(owner.groceries)/edit?link-revoked=edit"))
    #expect(after.contains("The edit link is revoked: it no longer works."))
    #expect(try Self.shownLinks(browser, list: owner.groceries) == ["read-only": reader])
    #expect(Self.get(browser, "/s/\(editor)").status == 404)
    #expect(Self.get(browser, "/s/\(reader)").status == 200)
    let again = try Self.share(browser, list: owner.groceries, "edit")
    #expect(again != editor)
    #expect(Self.get(browser, "/s/\(editor)").status == 404)
    #expect(Self.get(browser, "/s/\(again)").status == 200)
  }

  /// Edit List is kept by no cache while it shows a link's address (the
  /// service worker keeps it otherwise, for renaming a list offline).
  @Test func editListShowingALinkIsNeverStored() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let path = "/lists/\(owner.groceries)/edit"
    #expect(browser.get(path).headerFields[.cacheControl] == "private, no-cache")
    _ = try Self.share(browser, list: owner.groceries, "edit")
    let shown = browser.get(path)
    #expect(shown.status == .ok && shown.headerFields[.cacheControl] == "no-store")
    let other = browser.get("/lists/\(owner.work)/edit")
    #expect(other.headerFields[.cacheControl] == "private, no-cache")
    browser.post("/lists/\(owner.groceries)/share/edit/revoke")
    #expect(browser.get(path).headerFields[.cacheControl] == "private, no-cache")
  }

  /// A first-run visitor's `List` is only shown until their first change:
  /// sharing it stores it, so that the link finds it.
  @Test func sharingTheFirstRunListStoresIt() throws {
    let browser = try ApplicationHarness()
    #expect(browser.get("/lists/1/edit").status == 200)
    let token = try Self.share(browser, list: 1, "read-only")
    let page = Self.get(browser, "/s/\(token)")
    #expect(page.status == 200 && browser.text(page).contains("List</h1>"))
  }

  @Test func sharingAListNobodyHasIs404AndAChangeNeedsTheToken() throws {
    let owner = try Self.owner()
    let before = owner.browser.storedFiles()
    #expect(owner.browser.post("/lists/99/share/edit").status == 404)
    #expect(owner.browser.post("/lists/99/share/edit/revoke").status == 404)
    #expect(owner.browser.post("/lists/\(owner.work)/share/edit", withToken: false).status == 403)
    #expect(owner.browser.storedFiles() == before)
  }

  // MARK: A read-only link

  @Test func aReadOnlyLinkShowsTheListToAnyoneWithNoFormAndNoCookie() throws {
    let owner = try Self.owner()
    #expect(
      owner.browser.post(
        "/lists/\(owner.groceries)/items/\(owner.milk)/toggle", [("check", "1")]
      ).status == 303)
    let token = try Self.share(owner.browser, list: owner.groceries, "read-only")
    let response = Self.get(owner.browser, "/s/\(token)")
    #expect(response.status == 200)
    Self.expectSharedHeaders(response)
    let page = owner.browser.text(response)
    #expect(page.contains("Groceries") && page.contains("Milk") && page.contains("Bread"))
    #expect(page.contains("Checked: </span>Milk") && page.contains("Not checked: </span>Bread"))
    #expect(!page.contains("<form") && !page.contains("<button") && !page.contains("csrf"))
    #expect(!page.contains("Report") && !page.contains("Work"))
    for owners in ["href=\"/lists", "href=\"/settings", "href=\"/deleted", "<nav"] {
      #expect(!page.contains(owners), "\(owners)")
    }
    // Live updates: the heading and the rows, marked (see `sharedPagesMarkTheirLiveParts`).
    #expect(page.components(separatedBy: " data-live>").count - 1 == 2)
    // HEAD works where GET does.
    let head = Self.stranger(owner.browser, Request(method: .head, path: "/s/\(token)"))
    #expect(head.status == 200 && head.headerFields[.eTag] == response.headerFields[.eTag])
  }

  @Test func everyChangeWithAReadOnlyLinkIs403AndChangesNothing() throws {
    let owner = try Self.owner()
    let token = try Self.share(owner.browser, list: owner.groceries, "read-only")
    let before = owner.browser.storedFiles()
    let milk = owner.milk
    let paths = [
      "/s/\(token)/items", "/s/\(token)/items/\(milk)", "/s/\(token)/items/\(milk)/toggle",
      "/s/\(token)/items/\(milk)/delete", "/s/\(token)", "/s/\(token)/items/\(milk)/edit",
      "/s/\(token)/lists/\(owner.groceries)/delete", "/s/\(token)/x", "/s/\(token)/settings",
    ]
    for path in paths {
      for csrf in [nil, String(repeating: "0", count: 64)] {
        let response = Self.post(
          owner.browser, path, [("text", "x"), ("check", "1")], csrf: csrf)
        #expect(response.status == 403, "\(path)")
        Self.expectSharedHeaders(response, "\(path)")
        #expect(owner.browser.text(response).contains("Read-only link"))
      }
    }
    // Its edit form is a form too: refused.
    #expect(Self.get(owner.browser, "/s/\(token)/items/\(milk)/edit").status == 403)
    #expect(owner.browser.storedFiles() == before)
  }

  // MARK: An edit link

  @Test func anEditLinkAddsEditsTogglesAndDeletesItems() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let page = Self.get(browser, "/s/\(token)")
    #expect(page.status == 200)
    let text = browser.text(page)
    #expect(text.contains("action=\"/s/\(token)/items\""))
    #expect(text.contains("formaction=\(token)/items/\(owner.milk)/toggle "))
    #expect(!text.contains("href=\"/lists") && !text.contains("href=\"/settings"))
    let csrf = try Self.formToken(browser, token)
    let nonce = try #require(
      text.firstMatch(of: #/name="nonce" value="(\d+)"/#).map { String($0.output.1) })

    let added = Self.post(
      browser, "/s/\(token)/items", [("text", "Eggs"), ("nonce", nonce)], csrf: csrf)
    #expect(added.status == 303 && added.headerFields[.location] == "/s/\(token)")
    Self.expectSharedHeaders(added)
    // The same add sent again adds nothing.
    #expect(
      Self.post(browser, "/s/\(token)/items", [("text", "Eggs"), ("nonce", nonce)], csrf: csrf)
        .status == 303)
    var groceries = try #require(try Self.model(owner).checklist(id: owner.groceries))
    #expect(groceries.items.map(\.text) == ["Milk", "Bread", "Eggs"])

    for wanted in ["1", "1", "0", "1"] {
      let toggled = Self.post(
        browser, "/s/\(token)/items/\(owner.bread)/toggle", [("check", wanted)], csrf: csrf)
      #expect(toggled.status == 303)
      groceries = try #require(try Self.model(owner).checklist(id: owner.groceries))
      #expect(groceries.item(id: owner.bread)?.checked == (wanted == "1"))
    }

    let form = Self.get(browser, "/s/\(token)/items/\(owner.milk)/edit")
    #expect(form.status == 200)
    let formText = browser.text(form)
    #expect(formText.contains("action=\"/s/\(token)/items/\(owner.milk)\""))
    #expect(formText.contains("href=\"/s/\(token)\"") && !formText.contains("href=\"/settings"))
    let saved = Self.post(
      browser, "/s/\(token)/items/\(owner.milk)",
      [
        ("text", "Oat milk"), ("dueDate", "2031-05-12T14:30"), ("dueDateZone", "UTC"),
        ("shouldRemind", "on"),
      ], csrf: csrf)
    #expect(saved.status == 303 && saved.headerFields[.location] == "/s/\(token)")
    let milk = try #require(
      try Self.model(owner).checklist(id: owner.groceries)?.item(id: owner.milk))
    #expect(milk.text == "Oat milk" && milk.shouldRemind)
    #expect(milk.dueDate == Date(timeIntervalSince1970: 1_936_362_600))
    // Refused input comes back as typed, in the shared layout.
    let refused = Self.post(
      browser, "/s/\(token)/items/\(owner.milk)",
      [("text", "Oat milk"), ("dueDate", "tomorrow"), ("dueDateZone", "UTC")], csrf: csrf)
    #expect(refused.status == 400)
    Self.expectSharedHeaders(refused)
    #expect(browser.text(refused).contains("value=\"tomorrow\""))
    #expect(!browser.text(refused).contains("href=\"/lists"))
    let empty = Self.post(
      browser, "/s/\(token)/items/\(owner.milk)", [("text", " "), ("dueDate", "")], csrf: csrf)
    #expect(empty.status == 422)

    let deleted = Self.post(browser, "/s/\(token)/items/\(owner.bread)/delete", csrf: csrf)
    #expect(deleted.status == 303 && deleted.headerFields[.location] == "/s/\(token)")
    #expect(
      Self.post(browser, "/s/\(token)/items/\(owner.bread)/delete", csrf: csrf).status == 303)
    let model = try Self.model(owner)
    #expect(model.checklist(id: owner.groceries)?.items.map(\.text) == ["Oat milk", "Eggs"])
    // In the owner's Recently Deleted, restorable by the owner.
    #expect(browser.text(browser.get("/deleted")).contains("Bread"))
    // The owner's other list is untouched.
    #expect(model.checklist(id: owner.work)?.items.map(\.text) == ["Report"])
    #expect(model.checklist(id: owner.groceries)?.name == "Groceries")
  }

  /// An edit link reaches its own list's items and nothing else: another
  /// list's item through it is `404`, and no path leads to the owner's
  /// other screens.
  @Test func anEditLinkCannotReachAnotherListOrTheOwnersScreens() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let csrf = try Self.formToken(browser, token)
    let before = browser.storedFiles()
    let report = owner.report
    for (path, fields) in [
      ("/s/\(token)/items/\(report)/toggle", [("check", "1")]),
      ("/s/\(token)/items/\(report)/delete", []),
      ("/s/\(token)/items/\(report)", [("text", "taken"), ("dueDate", "")]),
      ("/s/\(token)/items/999/toggle", [("check", "1")]),
    ] {
      let response = Self.post(browser, path, fields, csrf: csrf)
      #expect(response.status == 404, "\(path)")
      #expect(!browser.text(response).contains("href=\"/lists"), "\(path)")
    }
    #expect(Self.get(browser, "/s/\(token)/items/\(report)/edit").status == 404)
    for path in [
      "/s/\(token)/lists", "/s/\(token)/lists/\(owner.work)", "/s/\(token)/settings",
      "/s/\(token)/deleted", "/s/\(token)/../lists", "/s/\(token)/lists/\(owner.groceries)/edit",
    ] {
      #expect(Self.get(browser, path).status == 404, "\(path)")
      #expect(Self.post(browser, path, [("name", "x")], csrf: csrf).status == 404, "\(path)")
    }
    // The link's form token is not the owner's, nor the other way round.
    #expect(browser.post("/lists/\(owner.work)/items", [("text", "x")], token: csrf).status == 403)
    #expect(
      Self.post(browser, "/s/\(token)/items", [("text", "x")], csrf: browser.csrf()).status == 403)
    #expect(browser.storedFiles() == before)
  }

  @Test func aSharedChangeIsCheckedAgainstForgery() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let other = try Self.share(browser, list: owner.work, "edit")
    let csrf = try Self.formToken(browser, token)
    #expect(csrf != (try Self.formToken(browser, other)))
    let path = "/s/\(token)/items/\(owner.milk)/toggle"
    let before = browser.storedFiles()
    let refusals: [(String?, HTTPFields)] = [
      (nil, [:]),
      ("", [:]),
      (String(repeating: "0", count: 64), [:]),
      (try Self.formToken(browser, other), [:]),
      (csrf, [.origin: "https://evil.example"]),
      (csrf, [.secFetchSite: "cross-site"]),
      (csrf, [.origin: "null"]),
      (csrf, [.origin: "null", .secFetchSite: "same-site"]),
    ]
    for (submitted, fields) in refusals {
      let response = Self.post(
        browser, path, [("check", "1")], csrf: submitted,
        headerFields: fields, authority: "lists.example")
      #expect(response.status == 403, "\(String(describing: submitted)) \(fields)")
    }
    #expect(browser.storedFiles() == before)
    // A form posted natively from the page (no-referrer: Origin null, but
    // the browser says same-origin), and the script's fetch (real Origin).
    let native = Self.post(
      browser, path, [("check", "1")], csrf: csrf,
      headerFields: [.origin: "null", .secFetchSite: "same-origin"])
    #expect(native.status == 303)
    let fetched = Self.post(
      browser, path, [("check", "0")], csrf: csrf,
      headerFields: [.origin: "http://lists.example", .secFetchSite: "same-origin"],
      authority: "lists.example")
    #expect(fetched.status == 303)
  }

  // MARK: Unknown, revoked, deleted

  /// A token that opens nothing gets one answer, whatever the reason.
  @Test func unknownMalformedAndRevokedTokensAreTheSame404() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let reader = try Self.share(browser, list: owner.groceries, "read-only")
    #expect(browser.post("/lists/\(owner.groceries)/share/edit/revoke").status == 303)
    #expect(browser.post("/lists/\(owner.groceries)/share/read-only/revoke").status == 303)
    let unknown = Self.get(browser, "/s/" + String(repeating: "ab", count: 16))
    #expect(unknown.status == 404)
    Self.expectSharedHeaders(unknown)
    let plain = Self.get(browser, "/no/such/page")
    #expect(unknown.body == plain.body)
    for path in [
      "/s/\(token)", "/s/\(reader)", "/s/\(token.uppercased())", "/s/\(token)0",
      "/s/\(token.dropLast())", "/s/abc", "/s/\(String(repeating: "z", count: 32))",
      "/s/\(token)/items/\(owner.milk)/edit", "/s/" + SecretDigest.of(token),
    ] {
      let response = Self.get(browser, path)
      #expect(response.status == 404, "\(path)")
      #expect(response.body == unknown.body, "\(path)")
      #expect(
        response.headerFields.map(\.description).sorted()
          == unknown.headerFields.map(\.description).sorted(), "\(path)")
    }
    for path in ["/s/\(token)/items", "/s/\(reader)/items", "/s/\(token)/items/1/toggle"] {
      let response = Self.post(
        browser, path, [("text", "x")], csrf: String(repeating: "0", count: 64))
      #expect(response.status == 404 && response.body == unknown.body, "\(path)")
    }
  }

  /// A deleted list's links answer `404`, and work again when the list is
  /// restored from Recently Deleted (its links are kept with it).
  @Test func aDeletedListsLinksAre404UntilItIsRestored() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let csrf = try Self.formToken(browser, token)
    let deleted = browser.post("/lists/\(owner.groceries)/delete")
    let location = try #require(deleted.headerFields[.location])
    let deletion = try #require(
      location.firstMatch(of: #/deleted=(\d+)/#).map { String($0.output.1) })
    #expect(Self.get(browser, "/s/\(token)").status == 404)
    #expect(
      Self.post(browser, "/s/\(token)/items", [("text", "x")], csrf: csrf).status == 404)
    #expect(browser.post("/deleted/\(deletion)/restore").status == 303)
    #expect(Self.get(browser, "/s/\(token)").status == 200)
    #expect(
      Self.post(browser, "/s/\(token)/items", [("text", "Back")], csrf: csrf).status == 303)
  }

  // MARK: Conditional requests and the memo

  /// An edit link's page hangs on its list alone: its nonce is the list's
  /// own (not the owner's site-wide next item id) and its tag does not move
  /// when the owner works on another list, so the link's holder cannot
  /// watch the owner's activity elsewhere.
  @Test func anEditLinksPageSaysNothingOfTheOwnersOtherLists() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    Thread.sleep(forTimeInterval: 0.03)  // older than the memo's 20 ms
    let first = Self.get(browser, "/s/\(token)")
    let tag = try #require(first.headerFields[.eTag])
    let nonce = try #require(
      browser.text(first).firstMatch(of: #/name="nonce" value="(\d+)"/#).flatMap {
        Int($0.output.1)
      })
    #expect(nonce == max(owner.milk, owner.bread) + 1)
    // The owner works on another list: the link's page is the same page.
    for text in ["Slides", "Budget"] {
      #expect(browser.post("/lists/\(owner.work)/items", [("text", text)]).status == 303)
    }
    #expect(try Self.model(owner).nextItemID > nonce)
    let again = Self.get(browser, "/s/\(token)", [.ifNoneMatch: tag])
    #expect(again.status == 304)
    #expect(Self.get(browser, "/s/\(token)").body == first.body)
  }

  /// An unchanged page is `304` by its tag, with the shared headers; a
  /// change by anyone, a revocation or a deletion is seen at once.
  @Test func revalidationIs304UntilSomethingChanges() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "edit")
    let reader = try Self.share(browser, list: owner.groceries, "read-only")
    Thread.sleep(forTimeInterval: 0.03)  // older than the memo's 20 ms
    let first = Self.get(browser, "/s/\(reader)")
    let tag = try #require(first.headerFields[.eTag])
    for _ in 0..<3 {
      let again = Self.get(browser, "/s/\(reader)", [.ifNoneMatch: tag])
      #expect(again.status == 304 && again.body.isEmpty && again.headerFields[.eTag] == tag)
      Self.expectSharedHeaders(again)
      // Whoever asks, with a cookie of their own or none.
      let withCookie = browser.get("/s/\(reader)", headerFields: [.ifNoneMatch: tag])
      #expect(withCookie.status == 304 && !withCookie.headerFields.contains(.setCookie))
    }
    // A change through the edit link: the read-only page follows.
    let csrf = try Self.formToken(browser, token)
    #expect(
      Self.post(browser, "/s/\(token)/items/\(owner.milk)/toggle", [("check", "1")], csrf: csrf)
        .status == 303)
    let changed = Self.get(browser, "/s/\(reader)", [.ifNoneMatch: tag])
    #expect(changed.status == 200 && changed.headerFields[.eTag] != tag)
    #expect(browser.text(changed).contains("Checked: </span>Milk"))
    // The owner's own change too.
    Thread.sleep(forTimeInterval: 0.03)
    let newTag = try #require(Self.get(browser, "/s/\(reader)").headerFields[.eTag])
    #expect(Self.get(browser, "/s/\(reader)", [.ifNoneMatch: newTag]).status == 304)
    #expect(browser.post("/lists/\(owner.groceries)/items", [("text", "Jam")]).status == 303)
    let owners = Self.get(browser, "/s/\(reader)", [.ifNoneMatch: newTag])
    #expect(owners.status == 200 && browser.text(owners).contains("Jam"))
    // A revoked link's page is never answered from memory.
    Thread.sleep(forTimeInterval: 0.03)
    #expect(Self.get(browser, "/s/\(reader)").status == 200)
    #expect(browser.post("/lists/\(owner.groceries)/share/read-only/revoke").status == 303)
    #expect(Self.get(browser, "/s/\(reader)").status == 404)
    #expect(Self.get(browser, "/s/\(reader)", [.ifNoneMatch: newTag]).status == 404)
  }

  /// The kept page answers by itself: with the index entry gone (which no
  /// change of the owner's does without changing their directory first) it
  /// is still answered from memory, until anything of the owner's changes.
  @Test func aKeptPageIsAnsweredWithoutReadingTheLinkAgain() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let token = try Self.share(browser, list: owner.groceries, "read-only")
    Thread.sleep(forTimeInterval: 0.03)
    let first = Self.get(browser, "/s/\(token)")
    let tag = try #require(first.headerFields[.eTag])
    let entry = browser.application.shares.entryPath(digest: SecretDigest.of(token))
    try FileManager.default.removeItem(atPath: entry)
    #expect(Self.get(browser, "/s/\(token)", [.ifNoneMatch: tag]).status == 304)
    let kept = Self.get(browser, "/s/\(token)")
    #expect(kept.status == 200 && kept.body == first.body)
    // Not with a query (never kept), nor once the owner's directory changed.
    #expect(Self.get(browser, "/s/\(token)?x").status == 404)
    #expect(browser.post("/lists/\(owner.groceries)/items", [("text", "Jam")]).status == 303)
    #expect(Self.get(browser, "/s/\(token)", [.ifNoneMatch: tag]).status == 404)
  }

  /// A shared page marks the parts an open browser puts in place when the
  /// list changes (app.js, live updates): always the same ones for a link,
  /// whatever the list holds, and never one inside another.
  @Test func sharedPagesMarkTheirLiveParts() throws {
    let owner = try Self.owner()
    let browser = owner.browser
    let reader = try Self.share(browser, list: owner.work, "read-only")
    let editor = try Self.share(browser, list: owner.work, "edit")
    func page(_ token: String) -> String { browser.text(Self.get(browser, "/s/\(token)")) }
    func parts(_ token: String) -> [String] {
      page(token).matches(of: #/<(\w+)[^>]*\sdata-live>/#).map { String($0.output.1) }
    }
    #expect(parts(reader) == ["div", "div"])
    #expect(parts(editor) == ["div", "div", "input"])
    #expect(!page(reader).contains("<main id=\"main\" tabindex=\"-1\" data-live"))
    // Emptied, the same parts.
    let csrf = try Self.formToken(browser, editor)
    #expect(
      Self.post(browser, "/s/\(editor)/items/\(owner.report)/delete", csrf: csrf).status == 303)
    #expect(page(reader).contains("No items yet."))
    #expect(parts(reader) == ["div", "div"])
    #expect(parts(editor) == ["div", "div", "input"])
  }

  // MARK: Secrets stay secret

  /// Nothing the backend logs while answering shared pages, refusals and
  /// failures included, holds a link's token.
  @Test func aTokenIsNeverLogged() throws {
    let owner = try Self.owner()
    let token = try Self.share(owner.browser, list: owner.groceries, "edit")
    let reader = try Self.share(owner.browser, list: owner.groceries, "read-only")
    let lines = CapturedLog()
    let application = try Application(
      configuration: ApplicationConfiguration(
        dataDirectory: owner.browser.data,
        templatesDirectory: BuiltTool.packageRoot + "/Templates",
        publicDirectory: BuiltTool.packageRoot + "/Public", durable: false),
      logger: Logger(label: "test") { _ in CapturingLogHandler(log: lines) })
    let form = "csrf=0&check=1"
    func post(_ path: String, _ fields: HTTPFields = [:]) -> Response {
      var fields = fields
      fields[.contentType] = "application/x-www-form-urlencoded"
      return application.respond(
        to: Request(method: .post, path: path, headerFields: fields, body: Array(form.utf8)))
    }
    #expect(post("/s/\(token)/items/\(owner.milk)/toggle").status == 403)
    #expect(post("/s/\(token)/items/1/toggle", [.origin: "null"]).status == 403)
    #expect(post("/s/\(reader)/items/1/toggle").status == 403)
    // A damaged checklists file: set aside and logged, the page a 500.
    let directory = try Self.directory(of: owner.browser)
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: directory.checklistsPath))
    let failed = application.respond(to: Request(method: .get, path: "/s/\(token)"))
    #expect(failed.status == 500)
    #expect(!String(decoding: failed.body, as: UTF8.self).contains("Your checklists"))
    let logged = lines.all()
    #expect(logged.count >= 3)
    for line in logged {
      #expect(!line.contains(token) && !line.contains(reader), "\(line)")
    }
  }
}
