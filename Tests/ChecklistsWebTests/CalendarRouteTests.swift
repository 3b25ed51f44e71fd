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

/// The private calendar address: made, replaced and removed from Settings,
/// the feed behind it, and every other token answered as an unknown address.
@Suite struct CalendarRouteTests {
  static var address: Regex<(Substring, Substring, Substring)> {
    #/http://([^/"]+)/calendar/([0-9a-f]{64})\.ics/#
  }

  /// The visitor's directory, from the cookie the harness keeps.
  static func directory(of browser: ApplicationHarness) throws -> VisitorDirectory {
    let cookie = try #require(browser.cookies["visitor"])
    let id = String(cookie.split(separator: ".")[0])
    return VisitorDirectory(dataDirectory: browser.data, visitorID: id)
  }

  /// The secret Settings shows, nil when it offers to create one.
  static func shownSecret(_ browser: ApplicationHarness, authority: String = "lists.example")
    -> String?
  {
    let page = browser.text(
      browser.send(Request(method: .get, path: "/settings", authority: authority)))
    return page.firstMatch(of: address).map { String($0.output.2) }
  }

  /// A visitor with one item due in an hour with Remind me on, and an address.
  static func visitorWithAddress() throws -> (ApplicationHarness, secret: String) {
    let browser = try ApplicationHarness()
    #expect(browser.post("/lists/1/items", [("text", "Dentist")]).status == 303)
    try remind(browser, item: 1, text: "Dentist", in: 3_600)
    #expect(shownSecret(browser) == nil)
    #expect(browser.post("/settings/calendar").status == 303)
    let secret = try #require(shownSecret(browser))
    return (browser, secret)
  }

  /// Gives an item a due date and Remind me through the model (the item
  /// form gains those fields elsewhere).
  static func remind(_ browser: ApplicationHarness, item: Int, text: String, in seconds: Double)
    throws
  {
    let store = ChecklistStore(
      configuration: .init(dataDirectory: browser.data, durable: false),
      logger: Logger(label: "test"))
    try store.update(
      try directory(of: browser), initial: { $0 ?? .firstRun() },
      { model in
        try model.editItem(
          id: item, inList: 1, text: text, dueDate: Date(timeIntervalSinceNow: seconds),
          shouldRemind: true)
      })
  }

  static func feed(_ browser: ApplicationHarness, _ secret: String, headerFields: HTTPFields = [:])
    -> Response
  {
    // No cookie: a calendar app has none.
    browser.application.respond(
      to: Request(method: .get, path: "/calendar/\(secret).ics", headerFields: headerFields))
  }

  @Test func settingsMakesAnAddressWhoseFeedHasTheReminder() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let page = browser.text(
      browser.send(Request(method: .get, path: "/settings", authority: "lists.example")))
    #expect(page.contains("value=\"http://lists.example/calendar/\(secret).ics\" readonly"))
    #expect(page.contains("href=\"webcal://lists.example/calendar/\(secret).ics\""))
    #expect(page.contains("Replace Address") && page.contains("Remove Address"))
    #expect(!page.contains("Create Calendar Address"))
    let response = Self.feed(browser, secret)
    #expect(response.status == 200)
    #expect(response.headerFields[.contentType] == "text/calendar; charset=utf-8")
    #expect(response.headerFields[.referrerPolicy] == "no-referrer")
    #expect(response.headerFields[.xRobotsTag] == "noindex, nofollow")
    #expect(response.headerFields[.cacheControl] == "private, no-cache")
    #expect(response.headerFields[.eTag] != nil && response.headerFields[.lastModified] != nil)
    #expect(response.setCookies.isEmpty)
    let body = browser.text(response)
    #expect(body.contains("SUMMARY:Dentist (List)\r\n"))
    #expect(body.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\n"))
    #expect(!body.contains(secret))
    // A repeated create keeps the address.
    #expect(browser.post("/settings/calendar").status == 303)
    #expect(Self.shownSecret(browser) == secret)
  }

  @Test func settingsKeepsTheSitesReferrerPolicyAndTheAddressFollowsTheOrigin() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let settings = browser.send(
      Request(method: .get, path: "/settings", authority: "lists.example"))
    #expect(settings.headerFields[.referrerPolicy] == "same-origin")
    // Host without its port (Debian's fastcgi_params): the listening port completes it.
    let behindPort = browser.text(
      browser.send(
        Request(method: .get, path: "/settings", authority: "lists.example", serverPort: 8080)))
    #expect(behindPort.contains("http://lists.example:8080/calendar/\(secret).ics"))
    #expect(behindPort.contains("webcal://lists.example:8080/calendar/\(secret).ics"))
    // Over HTTPS the same browser carries its cookie as `__Host-visitor`.
    let prefixed = "__Host-visitor=" + (browser.cookies["visitor"] ?? "")
    let https = browser.text(
      browser.send(
        Request(
          method: .get, path: "/settings", authority: "lists.example",
          headerFields: [.cookie: prefixed], isHTTPS: true, serverPort: 443)))
    #expect(https.contains("https://lists.example/calendar/\(secret).ics"))
    let origin = PublicOrigin("https://calendar.example.org")
    #expect(
      PublicOrigin.of(
        Request(method: .get, path: "/settings", authority: "internal:8080"), configured: origin)
        == origin)
  }

  @Test func theFeedIsConditional() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let first = Self.feed(browser, secret)
    let tag = try #require(first.headerFields[.eTag])
    let unchanged = Self.feed(browser, secret, headerFields: [.ifNoneMatch: tag])
    #expect(unchanged.status == 304 && unchanged.body.isEmpty)
    #expect(unchanged.headerFields[.eTag] == tag)
    #expect(unchanged.headerFields[.referrerPolicy] == "no-referrer")
    #expect(Self.feed(browser, secret, headerFields: [.ifNoneMatch: "\"other\""]).status == 200)
    // HEAD is answered as GET, and a change makes a new tag.
    let head = browser.application.respond(
      to: Request(method: .head, path: "/calendar/\(secret).ics"))
    #expect(head.status == 200 && head.headerFields[.eTag] == tag)
    #expect(browser.post("/lists/1/items", [("text", "Call back")]).status == 303)
    try Self.remind(browser, item: 2, text: "Call back", in: 7_200)
    let changed = Self.feed(browser, secret, headerFields: [.ifNoneMatch: tag])
    #expect(changed.status == 200 && changed.headerFields[.eTag] != tag)
    #expect(browser.text(changed).contains("SUMMARY:Call back (List)"))
  }

  @Test func ifModifiedSinceAnswers304OnlyForAnOlderFeed() throws {
    let etag = ETag(body: [1, 2, 3])
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    func request(_ since: String?, tag: String? = nil) -> Request {
      var fields = HTTPFields()
      if let since { fields[.ifModifiedSince] = since }
      if let tag { fields[.ifNoneMatch] = tag }
      return Request(method: .get, path: "/calendar/x.ics", headerFields: fields)
    }
    let changed: Int64 = 1_749_990_000
    let later = HTTPDate.format(secondsSince1970: changed + 10)
    let exactly = HTTPDate.format(secondsSince1970: changed)
    let earlier = HTTPDate.format(secondsSince1970: changed - 1)
    #expect(
      ConditionalGET.isNotModified(request(later), etag: etag, now: now, lastModified: { changed }))
    #expect(
      ConditionalGET.isNotModified(
        request(exactly), etag: etag, now: now, lastModified: { changed })
    )
    #expect(
      !ConditionalGET.isNotModified(
        request(earlier), etag: etag, now: now, lastModified: { changed })
    )
    #expect(
      !ConditionalGET.isNotModified(
        request("junk"), etag: etag, now: now, lastModified: { changed })
    )
    // If-None-Match wins over the date.
    #expect(
      !ConditionalGET.isNotModified(
        request(later, tag: "\"nope\""), etag: etag, now: now, lastModified: { changed }))
    // A feed changed in this very second is never 304 by date.
    let thisSecond = Int64(now.timeIntervalSince1970)
    #expect(
      !ConditionalGET.isNotModified(
        request(HTTPDate.format(secondsSince1970: thisSecond)), etag: etag, now: now,
        lastModified: { thisSecond }))
  }

  @Test func checkedAndDeletedItemsLeaveTheFeed() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    #expect(browser.post("/lists/1/items", [("text", "Pharmacy")]).status == 303)
    try Self.remind(browser, item: 2, text: "Pharmacy", in: 600)
    #expect(browser.text(Self.feed(browser, secret)).contains("SUMMARY:Pharmacy (List)"))
    #expect(browser.post("/lists/1/items/2/toggle", [("check", "1")]).status == 303)
    #expect(!browser.text(Self.feed(browser, secret)).contains("Pharmacy"))
    #expect(browser.post("/lists/1/items/1/delete").status == 303)
    let body = browser.text(Self.feed(browser, secret))
    #expect(!body.contains("BEGIN:VEVENT") && body.hasPrefix("BEGIN:VCALENDAR\r\n"))
  }

  /// Wrong, malformed, replaced and removed secrets get exactly what any
  /// unknown address gets: same status, same fields, same bytes.
  @Test func everyOtherTokenIsAnUnknownAddress() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let unknown = browser.application.respond(to: Request(method: .get, path: "/no/such/page"))
    #expect(unknown.status == 404)
    func isUnknown(_ path: String) -> Bool {
      browser.application.respond(to: Request(method: .get, path: path)) == unknown
    }
    let wrong = CalendarSecret.random().text
    #expect(isUnknown("/calendar/\(wrong).ics"))
    for malformed in [
      String(secret.dropLast()), secret + "0", secret.uppercased(), "abc", "", "../secret",
      String(repeating: "z", count: 64), "%30\(secret.dropFirst())",
    ] {
      #expect(isUnknown("/calendar/\(malformed).ics"), "\(malformed)")
    }
    #expect(isUnknown("/calendar/\(secret)"))
    #expect(isUnknown("/calendar/\(secret).ics/"))
    #expect(isUnknown("/calendar/\(secret).ICS"))
    #expect(isUnknown("/calendar"))

    #expect(browser.post("/settings/calendar/replace").status == 303)
    let replacement = try #require(Self.shownSecret(browser))
    #expect(replacement != secret)
    #expect(isUnknown("/calendar/\(secret).ics"))
    #expect(Self.feed(browser, replacement).status == 200)

    #expect(browser.post("/settings/calendar/delete").status == 303)
    #expect(isUnknown("/calendar/\(replacement).ics"))
    #expect(Self.shownSecret(browser) == nil)
    #expect(browser.text(browser.get("/settings")).contains("Create Calendar Address"))
  }

  @Test func theFeedTakesNoCookieAndChangesNothing() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let before = browser.storedFiles()
    let withSomeonesCookie = Self.feed(
      browser, secret, headerFields: [.cookie: "visitor=\(VisitorID().hex)"])
    #expect(withSomeonesCookie.status == 200 && withSomeonesCookie.setCookies.isEmpty)
    let post = browser.application.respond(
      to: Request(method: .post, path: "/calendar/\(secret).ics"))
    #expect(post.status == 405)
    #expect(browser.storedFiles() == before)
  }

  /// Nothing the backend logs while answering a feed, an error included,
  /// holds the secret.
  @Test func theSecretIsNeverLogged() throws {
    let (browser, secret) = try Self.visitorWithAddress()
    let lines = CapturedLog()
    let application = try Application(
      configuration: ApplicationConfiguration(
        dataDirectory: browser.data, templatesDirectory: BuiltTool.packageRoot + "/Templates",
        publicDirectory: BuiltTool.packageRoot + "/Public", durable: false),
      logger: Logger(label: "test") { _ in CapturingLogHandler(log: lines) })
    #expect(
      application.respond(to: Request(method: .get, path: "/calendar/\(secret).ics")).status == 200)
    // A damaged checklists file: set aside and logged, the feed a 500.
    let directory = try Self.directory(of: browser)
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: directory.checklistsPath))
    let failed = application.respond(to: Request(method: .get, path: "/calendar/\(secret).ics"))
    #expect(failed.status == 500)
    let unreadableSecretFile = directory.path + "/" + CalendarAddresses.secretFileName
    try FileManager.default.removeItem(atPath: unreadableSecretFile)
    try FileManager.default.createDirectory(
      atPath: unreadableSecretFile, withIntermediateDirectories: false)
    _ = application.respond(to: Request(method: .get, path: "/calendar/\(secret).ics"))
    let logged = lines.all()
    #expect(!logged.isEmpty)
    for line in logged { #expect(!line.contains(secret), "\(line)") }
  }
}

/// The lines a logger was given, with their metadata.
final class CapturedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  func all() -> [String] { lock.withLock { lines } }
}

struct CapturingLogHandler: LogHandler {
  let log: CapturedLog
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(
    level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
    file: String, function: String, line: UInt
  ) {
    let all = self.metadata.merging(metadata ?? [:]) { $1 }
    log.append("\(level) \(message) \(all)")
  }
}
