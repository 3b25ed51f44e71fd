import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Testing

@testable import ChecklistsWeb

/// Reading to-dos: `GET` of one, `REPORT` `calendar-multiget` and
/// `calendar-query` with its filters; reports and filters not offered
/// refused with their precondition; resource names as a path carries them.
@Suite struct DAVReportTests {
  typealias Setup = DAVPropfindTests.Setup

  static func report(_ setup: Setup, _ body: String, list: Int = 1) -> Response {
    setup.client.send(
      Request(
        method: RouteMethod.reportMethod, path: "/dav/lists/\(list)/",
        headerFields: [.authorization: setup.authorization, .depth: "1"], body: Array(body.utf8)))
  }

  static func get(_ setup: Setup, _ path: String, _ fields: HTTPFields = [:]) -> Response {
    var fields = fields
    fields[.authorization] = setup.authorization
    return setup.client.get(path, headerFields: fields)
  }

  static func query(_ todoFilter: String) -> String {
    """
    <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
      <d:prop><d:getetag/></d:prop>
      <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">\(todoFilter)</c:comp-filter></c:comp-filter></c:filter>
    </c:calendar-query>
    """
  }

  @Test func aToDoIsReadByGetAndByMultigetAlike() throws {
    let setup = try Setup()
    let got = Self.get(setup, "/dav/lists/1/1.ics")
    #expect(got.status == .ok)
    #expect(got.headerFields[.contentType] == "text/calendar; charset=utf-8; component=VTODO")
    let text = setup.client.text(got)
    #expect(text.contains("SUMMARY:Milk & <honey>\r\n") && text.contains("BEGIN:VTODO\r\n"))
    let tag = try #require(got.headerFields[.eTag])
    #expect(Self.get(setup, "/dav/lists/1/1.ics", [.ifNoneMatch: tag]).status == .notModified)
    #expect(Self.get(setup, "/dav/lists/1/9.ics").status == .notFound)
    #expect(Self.get(setup, "/dav/lists/99/1.ics").status == .notFound)
    #expect(setup.client.get("/dav/lists/1/1.ics").status == .unauthorized)

    let multiget = Self.report(
      setup,
      """
      <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
        <d:prop><d:getetag/><c:calendar-data/></d:prop>
        <d:href>/dav/lists/1/1.ics</d:href><d:href>http://host/dav/lists/1/2.ics</d:href>
        <d:href>/dav/lists/1/nothing.ics</d:href><d:href>/dav/lists/2/1.ics</d:href>
      </c:calendar-multiget>
      """)
    let found = try DAVPropfindTests.found(multiget)
    #expect(found["/dav/lists/1/1.ics"]?["calendar-data"]?.text == text)
    #expect(found["/dav/lists/1/1.ics"]?["getetag"]?.text == tag)
    #expect(found["/dav/lists/1/2.ics"]?["calendar-data"]?.text.contains("SUMMARY:Eggs") == true)
    let root = try DAVXMLReader.read(multiget.body)
    let missing = root.children.filter {
      $0.child("DAV:", "status")?.text == "HTTP/1.1 404 Not Found"
    }
    #expect(
      missing.compactMap { $0.child("DAV:", "href")?.text } == [
        "/dav/lists/1/nothing.ics", "/dav/lists/2/1.ics",
      ])
  }

  @Test func aQueryTakesWhatItsFilterTakes() throws {
    let setup = try Setup()
    #expect(setup.owner.post("/lists/1/items/2/toggle").status == .seeOther)
    setup.owner.post(
      "/lists/1/items/1",
      [("text", "Milk"), ("dueDate", "2025-03-01T17:00"), ("dueDateZone", "UTC")])
    func hrefs(_ filter: String) throws -> Set<String> {
      Set(try DAVPropfindTests.found(Self.report(setup, Self.query(filter))).keys)
    }
    let both: Set = ["/dav/lists/1/1.ics", "/dav/lists/1/2.ics"]
    #expect(try hrefs("") == both)
    let open =
      #"<c:prop-filter name="STATUS"><c:text-match negate-condition="yes">COMPLETED</c:text-match></c:prop-filter>"#
    #expect(try hrefs(open) == ["/dav/lists/1/1.ics"])
    #expect(
      try hrefs(#"<c:prop-filter name="DUE"><c:is-not-defined/></c:prop-filter>"#) == [
        "/dav/lists/1/2.ics"
      ])
    #expect(try hrefs(#"<c:time-range start="20250301T000000Z" end="20250302T000000Z"/>"#) == both)
    #expect(
      try hrefs(#"<c:time-range start="20250302T000000Z" end="20250303T000000Z"/>"#) == [
        "/dav/lists/1/2.ics"
      ])
    let events = Self.report(
      setup,
      Self.query("").replacingOccurrences(of: #"name="VTODO""#, with: #"name="VEVENT""#))
    #expect(try DAVPropfindTests.found(events).isEmpty)
  }

  /// A to-do with a `DTSTART` and a `DURATION` is taken by the ranges it
  /// overlaps, not by every one (RFC 4791 §9.9).
  @Test func aToDoWithAStartAndADurationIsTakenWhereItFalls() throws {
    let setup = try Setup()
    let todo = DAVWriteTests.todo.replacingOccurrences(
      of: "PRIORITY:1\r\n", with: "DTSTART:20250301T100000Z\r\nDURATION:PT2H\r\n")
    #expect(DAVWriteTests.send(setup, .put, "/dav/lists/1/timed.ics", todo).status == .created)
    func takesIt(_ start: String, _ end: String) throws -> Bool {
      let range = #"<c:time-range start="\#(start)" end="\#(end)"/>"#
      let found = try DAVPropfindTests.found(Self.report(setup, Self.query(range)))
      return found["/dav/lists/1/timed.ics"] != nil
    }
    #expect(try takesIt("20250301T110000Z", "20250301T113000Z"))
    #expect(try takesIt("20250301T120000Z", "20250302T000000Z"))
    #expect(try !takesIt("20250301T120001Z", "20250302T000000Z"))
    #expect(try !takesIt("20250601T000000Z", "20250701T000000Z"))
    #expect(try !takesIt("20250201T000000Z", "20250301T100000Z"))
  }

  @Test func reportsAndFiltersNotOfferedAreRefusedByTheirPrecondition() throws {
    let setup = try Setup()
    let expand = Self.report(setup, #"<d:expand-property xmlns:d="DAV:"/>"#)
    #expect(expand.status == .forbidden)
    #expect(setup.client.text(expand).contains("<d:supported-report/>"))
    let parameter = Self.report(
      setup,
      Self.query(#"<c:prop-filter name="DUE"><c:param-filter name="TZID"/></c:prop-filter>"#))
    #expect(parameter.status == .forbidden)
    #expect(setup.client.text(parameter).contains("supported-filter"))
    #expect(Self.report(setup, "").status == .badRequest)
    #expect(Self.report(setup, Self.query(""), list: 99).status == .notFound)
  }

  @Test func aResourceNameIsTheSegmentDecoded() {
    #expect(RoutePattern.resourceName("A%20B.ics".utf8.map { $0 }) == "A B.ics")
    #expect(RoutePattern.resourceName("%C3%A9t%C3%A9.ics".utf8.map { $0 }) == "été.ics")
    for refused in [
      "a%2Fb.ics", "..", ".", "%2E%2E", "a%0Ab", "a%", "a%zz", "%FF.ics",
      String(repeating: "x", count: 256),
    ] {
      #expect(RoutePattern.resourceName(Array(refused.utf8)) == nil, "\(refused)")
    }
  }
}

/// `sync-collection` (RFC 6578) with a token per collection: the whole
/// collection without one, nothing with the current one, only what changed
/// (a removed to-do as `404`) with one from before a change, and a fresh
/// sync (`valid-sync-token`) with one the list's change log no longer knows.
@Suite struct DAVSyncTests {
  typealias Setup = DAVPropfindTests.Setup

  static func sync(_ setup: Setup, token: String) -> Response {
    DAVReportTests.report(
      setup,
      """
      <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token>
      <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
      """)
  }

  static func token(_ response: Response) throws -> String {
    try #require(try DAVXMLReader.read(response.body).child("DAV:", "sync-token")?.text)
  }

  @Test func aTokenSaysNothingChangedOrAsksForAFreshSync() throws {
    let setup = try Setup()
    let first = Self.sync(setup, token: "")
    #expect(
      Set(try DAVPropfindTests.found(first).keys) == ["/dav/lists/1/1.ics", "/dav/lists/1/2.ics"])
    let token = try Self.token(first)
    let listed = try DAVPropfindTests.found(setup.propfind("/dav/lists/1/"))
    #expect(listed["/dav/lists/1/"]?["sync-token"]?.text == token)
    #expect(
      listed["/dav/lists/1/"]?["supported-report-set"]?.children.count == 3)

    let unchanged = Self.sync(setup, token: token)
    #expect(unchanged.status.code == 207)
    #expect(try DAVPropfindTests.found(unchanged).isEmpty)
    #expect(try Self.token(unchanged) == token)

    // A check on the web: the older token gets that to-do alone.
    #expect(setup.owner.post("/lists/1/items/2/toggle").status == .seeOther)
    let checked = Self.sync(setup, token: token)
    #expect(try Array(DAVPropfindTests.found(checked).keys) == ["/dav/lists/1/2.ics"])
    let afterCheck = try Self.token(checked)
    #expect(afterCheck != token)
    #expect(try DAVPropfindTests.found(Self.sync(setup, token: afterCheck)).isEmpty)

    // A delete from an app: a 404 for it, from either older token; the
    // to-do after it moved up, so its place (X-APPLE-SORT-ORDER) changed.
    #expect(DAVWriteTests.send(setup, .delete, "/dav/lists/1/1.ics").status == .noContent)
    let deleted = Self.sync(setup, token: afterCheck)
    #expect(try Self.removed(deleted) == ["/dav/lists/1/1.ics"])
    #expect(
      try DAVPropfindTests.found(deleted).keys.sorted() == [
        "/dav/lists/1/1.ics", "/dav/lists/1/2.ics",
      ])
    let fromFirst = Self.sync(setup, token: token)
    #expect(try Self.removed(fromFirst) == ["/dav/lists/1/1.ics"])
    #expect(
      try DAVPropfindTests.found(fromFirst).keys.sorted() == [
        "/dav/lists/1/1.ics", "/dav/lists/1/2.ics",
      ])
    #expect(try Self.token(fromFirst) == Self.token(deleted))
  }

  /// What a `sync-collection` answer reports removed: each response whose
  /// own status is `404`.
  static func removed(_ response: Response) throws -> [String] {
    #expect(response.status.code == 207)
    return try DAVXMLReader.read(response.body).children.compactMap { entry in
      guard entry.isNamed("DAV:", "response"),
        entry.child("DAV:", "status")?.text == "HTTP/1.1 404 Not Found"
      else { return nil }
      return entry.child("DAV:", "href")?.text
    }
  }

  @Test func aTokenTheLogNoLongerKnowsAsksForAFreshSync() throws {
    let setup = try Setup()
    let token = try Self.token(Self.sync(setup, token: ""))
    for _ in 0...ChangeLog.capacity {
      #expect(setup.owner.post("/lists/1/items", [("text", "More")]).status == .seeOther)
    }
    let stale = Self.sync(setup, token: token)
    #expect(stale.status == .forbidden)
    #expect(setup.client.text(stale).contains("<d:valid-sync-token/>"))
    for foreign in ["urn:checklists:sync:0-00000000-0", "http://elsewhere/1", token + "0"] {
      #expect(Self.sync(setup, token: foreign).status == .forbidden)
    }
    let fresh = try Self.token(Self.sync(setup, token: ""))
    #expect(fresh != token)
    #expect(try DAVPropfindTests.found(Self.sync(setup, token: fresh)).isEmpty)
  }
}
