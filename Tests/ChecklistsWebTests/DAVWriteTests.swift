import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import ICalendar
import Testing

@testable import ChecklistsWeb

/// A client's changes: `PUT` creates or replaces one to-do under its
/// preconditions, keeping every line it wrote through edits on the web;
/// `DELETE` sends it to Recently Deleted; refusals change nothing.
@Suite struct DAVWriteTests {
  typealias Setup = DAVPropfindTests.Setup

  static let todo = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Example//Tasks//EN\r
    BEGIN:VTODO\r
    UID:6F1A-client\r
    DTSTAMP:20250220T101500Z\r
    SUMMARY:Call the bakery\r
    DESCRIPTION:After 9\\, ask for the cake.\r
    PRIORITY:1\r
    X-CUSTOM;X-PARAM="a;b":kept\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    TRIGGER:-PT15M\r
    END:VALARM\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  static func send(
    _ setup: Setup, _ method: HTTPRequest.Method, _ path: String, _ body: String = "",
    _ fields: HTTPFields = [:]
  ) -> Response {
    var fields = fields
    fields[.authorization] = setup.authorization
    return setup.client.send(
      Request(method: method, path: path, headerFields: fields, body: Array(body.utf8)))
  }

  static func lines(_ response: Response) throws -> [String] {
    try ContentLineReader.read(response.body).map(\.text)
  }

  @Test func aToDoIsCreatedReplacedUnderItsTagAndKeptThroughAnEditOnTheWeb() throws {
    let setup = try Setup()
    let path = "/dav/lists/1/6F1A%20client.ics"
    let created = Self.send(setup, .put, path, Self.todo, [.ifNoneMatch: "*"])
    #expect(created.status == .created)
    #expect(
      DevicesTests().itemTexts(setup.owner) == [
        "Milk &amp; &lt;honey&gt;", "Eggs", "Call the bakery",
      ])
    #expect(
      Self.send(setup, .put, path, Self.todo, [.ifNoneMatch: "*"]).status == .preconditionFailed)

    let got = Self.send(setup, .get, path)
    let tag = try #require(got.headerFields[.eTag])
    for line in [
      "UID:6F1A-client", "DESCRIPTION:After 9\\, ask for the cake.", "PRIORITY:1",
      "X-CUSTOM;X-PARAM=\"a;b\":kept", "TRIGGER:-PT15M", "X-APPLE-SORT-ORDER:2",
    ] {
      #expect(try Self.lines(got).contains(line), "\(line)")
    }

    let replaced = Self.todo.replacingOccurrences(of: "Call the bakery", with: "Call the baker")
    #expect(
      Self.send(setup, .put, path, replaced, [.ifMatch: "\"stale\""]).status == .preconditionFailed)
    #expect(Self.send(setup, .put, path, replaced, [.ifMatch: tag]).status == .noContent)
    #expect(DevicesTests().itemTexts(setup.owner).last == "Call the baker")

    // An edit on the web keeps every line the client wrote.
    setup.owner.post("/lists/1/items/3", [("text", "Call the baker today")])
    let edited = try Self.lines(Self.send(setup, .get, path))
    #expect(edited.contains("SUMMARY:Call the baker today"))
    #expect(edited.contains("PRIORITY:1") && edited.contains("X-CUSTOM;X-PARAM=\"a;b\":kept"))
  }

  @Test func refusedToDosAreAClearPreconditionAndStoreNothing() throws {
    let setup = try Setup()
    let before = setup.owner.storedFiles()
    func refused(_ body: String, _ name: String = "x.ics") -> Response {
      Self.send(setup, .put, "/dav/lists/1/\(name)", body)
    }
    let event = refused(Self.todo.replacingOccurrences(of: "VTODO", with: "VEVENT"))
    #expect(event.status == .forbidden)
    #expect(setup.client.text(event).contains("supported-calendar-component"))
    let garbage = refused("BEGIN:VCALENDAR\r\nthis is not iCalendar\r\n")
    #expect(garbage.status == .forbidden)
    #expect(setup.client.text(garbage).contains("valid-calendar-data"))
    let two = Self.todo.replacingOccurrences(
      of: "END:VCALENDAR", with: "BEGIN:VTODO\r\nUID:2\r\nSUMMARY:y\r\nEND:VTODO\r\nEND:VCALENDAR")
    #expect(setup.client.text(refused(two)).contains("valid-calendar-object-resource"))
    let long = Self.todo.replacingOccurrences(
      of: "SUMMARY:Call the bakery", with: "SUMMARY:" + String(repeating: "x", count: 1_001))
    #expect(refused(long).status == .forbidden)
    #expect(refused(Self.todo, "7.ics").status == .conflict)
    #expect(Self.send(setup, .put, "/dav/lists/99/x.ics", Self.todo).status == .notFound)
    #expect(setup.owner.storedFiles() == before)

    // The same UID under another name of the same list.
    #expect(refused(Self.todo, "a.ics").status == .created)
    let clash = refused(Self.todo, "b.ics")
    #expect(clash.status == .forbidden)
    #expect(setup.client.text(clash).contains("<d:href>/dav/lists/1/a.ics</d:href>"))
  }

  @Test func aDeletedToDoGoesToRecentlyDeleted() throws {
    let setup = try Setup()
    #expect(
      Self.send(setup, .delete, "/dav/lists/1/1.ics", "", [.ifMatch: "\"stale\""]).status
        == .preconditionFailed)
    #expect(Self.send(setup, .delete, "/dav/lists/1/1.ics").status == .noContent)
    #expect(Self.send(setup, .get, "/dav/lists/1/1.ics").status == .notFound)
    #expect(Self.send(setup, .delete, "/dav/lists/1/1.ics").status == .notFound)
    #expect(DevicesTests().itemTexts(setup.owner) == ["Eggs"])
    #expect(setup.owner.text(setup.owner.get("/deleted")).contains("Milk &amp; &lt;honey&gt;"))
  }

  /// SPEC §8: an app that deletes as much as it likes (a "clear
  /// completed" of a long list) pushes out only what apps deleted before,
  /// never what the owner deleted on the web.
  @Test func anAppsDeletionsNeverPushOutTheOwners() throws {
    let setup = try Setup()
    #expect(setup.owner.post("/lists/1/items/1/delete").status == .seeOther)
    let rounds = Limits.maximumAppDeletions + 10
    for round in 0..<rounds {
      let path = "/dav/lists/1/synced-\(round).ics"
      let todo = Self.todo.replacingOccurrences(of: "6F1A-client", with: "synced-\(round)")
        .replacingOccurrences(of: "Call the bakery", with: "Synced \(round)")
      #expect(Self.send(setup, .put, path, todo, [.ifNoneMatch: "*"]).status == .created)
      #expect(Self.send(setup, .delete, path).status == .noContent)
    }
    let deleted = setup.owner.text(setup.owner.get("/deleted"))
    #expect(deleted.contains("Milk &amp; &lt;honey&gt;"))
    #expect(deleted.contains("Synced \(rounds - 1)"))
    #expect(deleted.contains("Synced 10<"))
    #expect(!deleted.contains("Synced 9<") && !deleted.contains("Synced 9\""))
  }
}

/// A client's changes to a list: a rename and the properties it keeps
/// there (a colour, an order) by `PROPPATCH`, all or nothing, and a
/// deletion to Recently Deleted.
@Suite struct DAVCollectionChangeTests {
  typealias Setup = DAVPropfindTests.Setup

  static func patch(_ setup: Setup, _ body: String, list: Int = 1) -> Response {
    DAVWriteTests.send(setup, RouteMethod.proppatchMethod, "/dav/lists/\(list)/", body)
  }

  static func update(_ set: String) -> String {
    """
    <d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/">
      <d:set><d:prop>\(set)</d:prop></d:set>
    </d:propertyupdate>
    """
  }

  @Test func aRenameIsAllOrNothing() throws {
    let setup = try Setup()
    let renamed = Self.patch(
      setup, Self.update("<d:displayname>Groceries &amp; more</d:displayname>"))
    #expect(renamed.status.code == 207)
    #expect(setup.client.text(renamed).contains("HTTP/1.1 200 OK"))
    #expect(setup.owner.text(setup.owner.get("/lists")).contains("Groceries &amp; more"))

    let before = setup.owner.storedFiles()
    let mixed = Self.patch(
      setup,
      Self.update(
        "<d:displayname>Other</d:displayname><d:getetag>\"mine\"</d:getetag>"))
    #expect(mixed.status.code == 207)
    let text = setup.client.text(mixed)
    #expect(
      text.contains("HTTP/1.1 403 Forbidden") && text.contains("HTTP/1.1 424 Failed Dependency"))
    #expect(setup.owner.storedFiles() == before)
    let empty = Self.patch(setup, Self.update("<d:displayname>  </d:displayname>"))
    #expect(empty.status == .forbidden)
    #expect(setup.owner.storedFiles() == before)
    #expect(
      Self.patch(setup, Self.update("<d:displayname>x</d:displayname>"), list: 99).status
        == .notFound)
  }

  /// Apple's colour and order, and any other property a client sets, are
  /// kept as sent and read back; a removal forgets one; beyond the bounds
  /// `507`, the rest `424`, nothing changed.
  @Test func aColourAndAnOrderAreKeptAsSent() throws {
    let setup = try Setup()
    let set = Self.patch(
      setup,
      Self.update(
        """
        <a:calendar-color>#FF2968FF</a:calendar-color><a:calendar-order>3</a:calendar-order>
        <x:note xmlns:x="urn:example:client">a &amp; b<x:part kind="one"/></x:note>
        """))
    #expect(set.status.code == 207)
    let setText = setup.client.text(set)
    #expect(setText.contains("HTTP/1.1 200 OK") && !setText.contains("424"))
    let ask = """
      <d:propfind xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/" xmlns:x="urn:example:client">
        <d:prop><a:calendar-color/><a:calendar-order/><x:note/><d:displayname/></d:prop>
      </d:propfind>
      """
    let found = try DAVPropfindTests.found(setup.propfind("/dav/lists/1/", body: ask))
    #expect(found["/dav/lists/1/"]?["calendar-color"]?.text == "#FF2968FF")
    #expect(found["/dav/lists/1/"]?["calendar-order"]?.text == "3")
    let note = try #require(found["/dav/lists/1/"]?["note"])
    #expect(note.text == "a & b")
    #expect(note.child("urn:example:client", "part")?.attributes["kind"] == "one")

    let removed = Self.patch(
      setup,
      """
      <d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/">
        <d:remove><d:prop><a:calendar-order/></d:prop></d:remove>
      </d:propertyupdate>
      """)
    #expect(removed.status.code == 207)
    let after = try DAVPropfindTests.found(setup.propfind("/dav/lists/1/", body: ask))
    #expect(after["/dav/lists/1/"]?["calendar-order"] == nil)
    #expect(after["/dav/lists/1/"]?["calendar-color"]?.text == "#FF2968FF")

    let before = setup.owner.storedFiles()
    let huge = String(repeating: "z", count: CollectionProperty.maximumValueBytes + 1)
    let tooLarge = Self.patch(
      setup,
      Self.update(
        "<a:calendar-color>#000000</a:calendar-color><a:huge>\(huge)</a:huge>"))
    let tooLargeText = setup.client.text(tooLarge)
    #expect(tooLarge.status.code == 207)
    #expect(tooLargeText.contains("HTTP/1.1 507 Insufficient Storage"))
    #expect(tooLargeText.contains("HTTP/1.1 424 Failed Dependency"))
    let many = (0..<CollectionProperty.maximumCount).map { "<a:p\($0)>v</a:p\($0)>" }.joined()
    let tooMany = Self.patch(setup, Self.update(many))
    #expect(setup.client.text(tooMany).contains("HTTP/1.1 507 Insufficient Storage"))
    #expect(setup.owner.storedFiles() == before)
  }

  @Test func aDeletedListGoesToRecentlyDeleted() throws {
    let setup = try Setup()
    let deleted = DAVWriteTests.send(setup, .delete, "/dav/lists/1/")
    #expect(deleted.status == .noContent)
    #expect(DAVWriteTests.send(setup, .delete, "/dav/lists/1/").status == .notFound)
    #expect(setup.owner.text(setup.owner.get("/deleted")).contains("List"))
    let home = try DAVPropfindTests.found(setup.propfind("/dav/lists/", depth: "1"))
    #expect(Set(home.keys) == ["/dav/lists/"])
  }

  /// A store that fails under a DAV request (here the owner's file cannot
  /// be read: a directory stands where it was) is `503` with
  /// `Retry-After`, for a read and a write alike, as on the web's pages.
  @Test func aStoreFailureIs503WithRetryAfter() throws {
    let setup = try Setup()
    let stored = try #require(
      setup.owner.storedFiles().keys.first { $0.hasSuffix("Checklists.plist") })
    let path = setup.owner.data + "/" + stored
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let read = setup.propfind("/dav/lists/", depth: "1")
    #expect(read.status == .serviceUnavailable)
    #expect(read.headerFields[.retryAfter] == "2")
    let write = DAVWriteTests.send(setup, .delete, "/dav/lists/1/1.ics")
    #expect(write.status == .serviceUnavailable)
    #expect(write.headerFields[.retryAfter] == "2")
  }
}
