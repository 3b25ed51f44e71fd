import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// `MKCALENDAR`: a new list under the name a client chose, reached by that
/// name and by its id, with the name and properties of the body's `set`;
/// a name taken, hostile or the server's, a component set without `VTODO`
/// and a refused property each refused with nothing stored; the web's
/// list count; and no other owner reaches the list.
@Suite struct DAVCalendarMakingTests {
  typealias Setup = DAVPropfindTests.Setup

  static let reminders = """
    <?xml version="1.0" encoding="UTF-8"?>
    <B:mkcalendar xmlns:A="DAV:" xmlns:B="urn:ietf:params:xml:ns:caldav" xmlns:D="http://apple.com/ns/ical/">
      <A:set><A:prop>
        <A:displayname>Garden &amp; shed</A:displayname>
        <D:calendar-color>#63DA38FF</D:calendar-color>
        <D:calendar-order>3</D:calendar-order>
        <B:supported-calendar-component-set><B:comp name="VTODO"/></B:supported-calendar-component-set>
      </A:prop></A:set>
    </B:mkcalendar>
    """

  /// The owner's lists as stored.
  static func model(_ setup: Setup) throws -> DataModel {
    let stored = setup.owner.storedFiles().first { $0.key.hasSuffix("/Checklists.plist") }
    return try PropertyListDecoder().decode(DataModel.self, from: try #require(stored?.value))
  }

  static func make(_ setup: Setup, _ segment: String, _ body: String = reminders) -> Response {
    DAVWriteTests.send(setup, RouteMethod.mkcalendarMethod, "/dav/lists/\(segment)/", body)
  }

  @Test func aNewListIsReachedByItsNameAndItsId() throws {
    let setup = try Setup()
    let name = "5C3E1C1A-8D2B-4E4F-9D61-0E1C2B3A4D5F"
    let made = Self.make(setup, name)
    #expect(made.status == .created)
    #expect(setup.owner.text(setup.owner.get("/lists")).contains("Garden &amp; shed"))

    let home = try DAVPropfindTests.found(setup.propfind("/dav/lists/", depth: "1"))
    let collection = try #require(home["/dav/lists/\(name)/"])
    #expect(collection["displayname"]?.text == "Garden & shed")
    #expect(collection["calendar-color"]?.text == "#63DA38FF")
    #expect(collection["calendar-order"]?.text == "3")
    #expect(collection["supported-calendar-component-set"] != nil)
    let id = try #require(try Self.model(setup).lists.first { $0.calendarName == name }?.id)

    // A to-do written by the name is read by the name and by the id.
    let path = "/dav/lists/\(name)/seeds.ics"
    #expect(DAVWriteTests.send(setup, .put, path, DAVWriteTests.todo).status == .created)
    let byName = DAVWriteTests.send(setup, .get, path)
    let byID = DAVWriteTests.send(setup, .get, "/dav/lists/\(id)/seeds.ics")
    #expect(byName.status == .ok && byID.body == byName.body)
    let listed = try DAVPropfindTests.found(setup.propfind("/dav/lists/\(id)/", depth: "1"))
    #expect(Set(listed.keys) == ["/dav/lists/\(name)/", "/dav/lists/\(name)/seeds.ics"])
    #expect(DevicesTests().itemTexts(setup.owner, list: id) == ["Call the bakery"])

    // Deleted, its name is free again; restored after another took it, it
    // is reached by its id alone.
    #expect(DAVWriteTests.send(setup, .delete, "/dav/lists/\(name)/").status == .noContent)
    #expect(Self.make(setup, name).status == .created)
    let deletion = try #require(try Self.model(setup).deletions.first?.id)
    #expect(setup.owner.post("/deleted/\(deletion)/restore").status == .seeOther)
    #expect(setup.propfind("/dav/lists/\(id)/").status.code == 207)
    let again = try DAVPropfindTests.found(setup.propfind("/dav/lists/", depth: "1"))
    #expect(again.keys.contains("/dav/lists/\(id)/") && again.keys.contains("/dav/lists/\(name)/"))
  }

  @Test func aTakenHostileOrServersNameIsRefusedAndNothingIsStored() throws {
    let setup = try Setup()
    #expect(Self.make(setup, "Garden").status == .created)
    let before = setup.owner.storedFiles()
    func refused(_ segment: String, _ body: String = Self.reminders)
      -> (HTTPResponse.Status, String)
    {
      let answer = Self.make(setup, segment, body)
      return (answer.status, setup.client.text(answer))
    }
    // Taken: by a client's name, by a list's id (its name's spelling too).
    for taken in ["Garden", "%47arden", "1"] {
      let (status, text) = refused(taken)
      #expect(
        status == .methodNotAllowed && text.contains("<d:resource-must-be-null/>"), "\(taken)")
      #expect(Self.make(setup, taken).headerFields[.allow]?.contains("PROPFIND") == true)
    }
    // Not a name a client may choose: the server's ids, a long one, what
    // would need escaping or decoding to something else.
    for hostile in [
      "99", "007", String(repeating: "a", count: CalendarName.maximumLength + 1), "caf%C3%A9",
      "a%20b", "a%3Bb", "..%2E", "...",
    ] {
      let (status, text) = refused(hostile)
      #expect(
        status == .forbidden && text.contains("calendar-collection-location-ok"), "\(hostile)")
    }
    // Never routed: a slash or a dot segment, escaped or not.
    for unrouted in ["a%2Fb", "%2E%2E", "%2E", "..", "a%00b"] {
      #expect(refused(unrouted).0 == .notFound, "\(unrouted)")
    }
    let events = Self.reminders.replacingOccurrences(of: "name=\"VTODO\"", with: "name=\"VEVENT\"")
    let (eventStatus, eventText) = refused("Events", events)
    #expect(eventStatus == .forbidden && eventText.contains("supported-calendar-component"))
    let live = Self.reminders.replacingOccurrences(
      of: "<D:calendar-order>3</D:calendar-order>", with: "<A:getetag>\"x\"</A:getetag>")
    let (liveStatus, liveText) = refused("Live", live)
    #expect(liveStatus == .forbidden)
    #expect(liveText.contains("HTTP/1.1 403 Forbidden") && liveText.contains("HTTP/1.1 424"))
    let huge = Self.reminders.replacingOccurrences(
      of: "#63DA38FF",
      with: String(repeating: "f", count: CollectionProperty.maximumValueBytes + 1))
    #expect(refused("Huge", huge).1.contains("HTTP/1.1 507 Insufficient Storage"))
    #expect(
      refused("Bad", "<B:mkcalendar xmlns:B=\"urn:ietf:params:xml:ns:caldav\">").0 == .badRequest)
    #expect(refused("Bad", "<d:propfind xmlns:d=\"DAV:\"/>").0 == .badRequest)
    #expect(setup.owner.storedFiles() == before)
  }

  @Test func anotherOwnersListIsNeverReached() throws {
    let setup = try Setup()
    let other = try Setup()
    #expect(Self.make(setup, "Private").status == .created)
    #expect(other.propfind("/dav/lists/Private/").status == .notFound)
    #expect(DAVWriteTests.send(other, .get, "/dav/lists/Private/x.ics").status == .notFound)
    #expect(
      DAVWriteTests.send(other, .put, "/dav/lists/Private/x.ics", DAVWriteTests.todo).status
        == .notFound)
    #expect(DAVWriteTests.send(other, .delete, "/dav/lists/Private/").status == .notFound)
    // Names are each owner's own.
    #expect(Self.make(other, "Private").status == .created)
    #expect(try Self.model(setup).lists.filter { $0.calendarName == "Private" }.count == 1)
    #expect(try Self.model(other).lists.filter { $0.calendarName == "Private" }.count == 1)
  }

  /// A collection's properties count towards the owner's 2 MiB as the
  /// rest of their lists do: with the owner's file filled by lists of 15
  /// properties of 4,000 bytes (written straight into it, as 35 requests
  /// would), one or two such lists more fit, then the next is `507`, while
  /// a list without properties still fits; a `PROPPATCH` of as much is
  /// `507` too, and the file stays within the cap.
  @Test func collectionPropertiesCountTowardsTheOwnersRoom() throws {
    let setup = try Setup()
    let value = String(repeating: "v", count: 4_000)
    let big = (0..<15).map {
      CollectionProperty(namespace: "urn:example:big", name: "p\($0)", value: value)
    }
    var model = try Self.model(setup)
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    var bytes = try encoder.encode(model)
    // About 60,400 bytes a list: add what fits, then check by encoding.
    var fitting = (Limits.maximumStoredBytes - bytes.count - 2 * 61_000) / 61_000
    while fitting > 0 || bytes.count + 2 * 61_000 < Limits.maximumStoredBytes {
      let number = model.lists.count
      let id = try model.addList(name: "Full \(number)", calendarName: "full\(number)")
      #expect(try model.changeProperties(ofList: id, setting: big, removing: []))
      fitting -= 1
      if fitting <= 0 { bytes = try encoder.encode(model) }
    }
    let path = try #require(
      setup.owner.storedFiles().keys.first { $0.hasSuffix("/Checklists.plist") })
    try bytes.write(to: URL(fileURLWithPath: setup.owner.data + "/" + path), options: .atomic)

    let properties = (0..<15).map { "<x:p\($0)>\(value)</x:p\($0)>" }.joined()
    let body = """
      <B:mkcalendar xmlns:A="DAV:" xmlns:B="urn:ietf:params:xml:ns:caldav" xmlns:x="urn:example:big">
        <A:set><A:prop>\(properties)</A:prop></A:set>
      </B:mkcalendar>
      """
    var made = 0
    var full: Response?
    while made < 3, full == nil {
      let answer = Self.make(setup, "big\(made)", body)
      if answer.status == .created { made += 1 } else { full = answer }
    }
    let refusal = try #require(full)
    #expect(refusal.status == .insufficientStorage && (1...2).contains(made))
    #expect(setup.client.text(refusal).contains("max-resource-size"))
    #expect(Self.make(setup, "bare", "").status == .created)
    let sixteen = (0..<16).map { "<a:q\($0)>\(value)</a:q\($0)>" }.joined()
    let patch = DAVCollectionChangeTests.patch(setup, DAVCollectionChangeTests.update(sixteen))
    #expect(patch.status == .insufficientStorage)
    let stored = setup.owner.storedFiles().first { $0.key.hasSuffix("/Checklists.plist") }
    #expect((try #require(stored?.value.count)) <= Limits.maximumStoredBytes)
  }

  /// The web's list count holds: the last list past it is `507`.
  @Test func theListCountIsTheWebs() throws {
    let setup = try Setup()
    let body = "<B:mkcalendar xmlns:B=\"urn:ietf:params:xml:ns:caldav\"/>"
    var made = 1
    while made < Limits.maximumLists {
      #expect(Self.make(setup, "l\(made)", body).status == .created)
      made += 1
    }
    let full = Self.make(setup, "one-more", body)
    #expect(full.status == .insufficientStorage)
    #expect(setup.client.text(full).contains("500 lists"))
  }
}
