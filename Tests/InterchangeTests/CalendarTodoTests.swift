import ChecklistsModel
import Foundation
import ICalendar
import Testing

@testable import Interchange

/// The one mapping between a `VTODO` and an item, both ways: what maps,
/// what is kept and written back unchanged, what an edit on the web
/// changes, and every refusal.
@Suite struct CalendarTodoTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!
  static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

  /// A to-do as a client with much to say writes it: a zone, a completed
  /// status, two alarms, a folded note in UTF-8, properties and parameters
  /// no checklist has.
  static let clientTodo = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Example Corp.//Tasks 1.0//EN",
    "BEGIN:VTIMEZONE",
    "TZID:Europe/Berlin",
    "BEGIN:STANDARD",
    "DTSTART:19701025T030000",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD",
    "END:VTIMEZONE",
    "BEGIN:VTODO",
    "UID:6F1A-client-uid",
    "DTSTAMP:20250220T101500Z",
    "CREATED:20250220T101500Z",
    "SUMMARY;LANGUAGE=de:Kuchen bestellen\\, \"Sahne\"",
    "DESCRIPTION:Bei der Bäckerei am Markt anrufen\\; nach 9 Uhr.\\nZweite Zeile mit "
      + String(repeating: "viel Text ", count: 12),
    "PRIORITY:1",
    "RRULE:FREQ=WEEKLY;COUNT=3",
    "CATEGORIES:Party,Family",
    "RELATED-TO;RELTYPE=PARENT:parent-uid",
    "DUE;TZID=Europe/Berlin:20250301T170000",
    "STATUS:COMPLETED",
    "COMPLETED:20250228T090000Z",
    "PERCENT-COMPLETE:100",
    "X-APPLE-SORT-ORDER:3",
    "X-CUSTOM;X-PARAM=\"quoted;value\":anything: goes",
    "BEGIN:VALARM",
    "ACTION:DISPLAY",
    "TRIGGER;RELATED=END:-PT15M",
    "DESCRIPTION:Reminder",
    "END:VALARM",
    "BEGIN:VALARM",
    "ACTION:AUDIO",
    "TRIGGER:-P1D",
    "END:VALARM",
    "END:VTODO",
    "END:VCALENDAR",
  ]

  static func bytes(_ lines: [String]) -> [UInt8] {
    var writer = ICalendarWriter()
    for line in lines {
      writer.append(try! ContentLineReader.read(Array(line.utf8))[0])
    }
    return writer.bytes
  }

  static func lines(_ bytes: [UInt8]) throws -> [String] {
    try ContentLineReader.read(bytes).map(\.text)
  }

  /// A model holding the to-do as its list's only item, and the item's id.
  static func stored(_ todo: CalendarTodo) throws -> (DataModel, Int, Int) {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    let item = try model.addItem(todo.fields(resource: "6F1A.ics"), toList: list)
    return (model, list, item)
  }

  static func document(_ item: ChecklistItem, zone: TimeZone = berlin) -> [UInt8] {
    CalendarTodo.document(
      item, uid: item.calendar?.uid ?? "web", stamp: Date(timeIntervalSince1970: 0), sortOrder: 0,
      zone: zone)
  }

  @Test func mapsTheFieldsAnItemHas() throws {
    let todo = try CalendarTodo.read(Self.bytes(Self.clientTodo), zone: Self.tokyo)
    #expect(todo.uid == "6F1A-client-uid")
    #expect(todo.text == "Kuchen bestellen, \"Sahne\"")
    #expect(todo.checked)
    // 17:00 in Berlin (winter time) whatever the owner's zone.
    #expect(todo.dueDate == Date(timeIntervalSince1970: 1_740_844_800))
    #expect(todo.shouldRemind)
    #expect(todo.sortOrder == 3)
  }

  @Test func writesBackEveryLineTheClientWroteUnchanged() throws {
    let todo = try CalendarTodo.read(Self.bytes(Self.clientTodo), zone: Self.berlin)
    let (model, list, id) = try Self.stored(todo)
    let item = try #require(model.checklist(id: list)?.item(id: id))
    let written = try Self.lines(Self.document(item))
    let dropped: Set<String> = [
      "VERSION:2.0", "PRODID:-//Example Corp.//Tasks 1.0//EN", "X-APPLE-SORT-ORDER:3",
    ]
    for line in Self.clientTodo where !dropped.contains(line) {
      #expect(written.contains(line), "lost: \(line)")
    }
    #expect(written.contains("X-APPLE-SORT-ORDER:0"))
    #expect(written.filter { $0 == "BEGIN:VTIMEZONE" }.count == 1)
    // And it reads back as the same to-do.
    var again = try CalendarTodo.read(Self.document(item), zone: Self.berlin)
    again.sortOrder = 3
    #expect(again == todo)
  }

  @Test func anEditOnTheWebChangesOnlyWhatItChanged() throws {
    let todo = try CalendarTodo.read(Self.bytes(Self.clientTodo), zone: Self.berlin)
    var (model, list, id) = try Self.stored(todo)
    let due = Date(timeIntervalSince1970: 1_741_000_000)
    try model.editItem(
      id: id, inList: list, text: "Torte bestellen", dueDate: due, shouldRemind: false)
    try model.toggleItem(id: id, inList: list)
    let item = try #require(model.checklist(id: list)?.item(id: id))
    let written = try Self.lines(Self.document(item))
    #expect(written.contains("SUMMARY:Torte bestellen"))
    #expect(written.contains("DUE:20250303T110640Z"))
    #expect(written.contains("STATUS:NEEDS-ACTION"))
    for gone in [
      "STATUS:COMPLETED", "COMPLETED:20250228T090000Z", "PERCENT-COMPLETE:100", "BEGIN:VALARM",
      "DUE;TZID=Europe/Berlin:20250301T170000",
    ] {
      #expect(!written.contains(gone), "still there: \(gone)")
    }
    for kept in [
      "PRIORITY:1", "RRULE:FREQ=WEEKLY;COUNT=3", "CATEGORIES:Party,Family",
      "RELATED-TO;RELTYPE=PARENT:parent-uid", "X-CUSTOM;X-PARAM=\"quoted;value\":anything: goes",
      "DTSTAMP:20250220T101500Z", "CREATED:20250220T101500Z",
    ] {
      #expect(written.contains(kept), "lost: \(kept)")
    }
    // Remind me on again: the client's own alarms come back.
    try model.editItem(
      id: id, inList: list, text: "Torte bestellen", dueDate: due, shouldRemind: true)
    let reminded = try Self.lines(
      Self.document(try #require(model.checklist(id: list)?.item(id: id))))
    #expect(reminded.contains("TRIGGER;RELATED=END:-PT15M") && reminded.contains("TRIGGER:-P1D"))
  }

  /// A client that writes back what it was served, unedited, gets the same
  /// bytes (and so the same tag) the first time already: an item made on
  /// the web and a client's to-do alike.
  @Test func aDocumentWrittenBackUneditedIsTheSameDocument() throws {
    var model = DataModel()
    let list = try model.addList(name: "Web", icon: .none)
    let id = try model.addItem(text: "Milk", toList: list)
    try model.editItem(
      id: id, inList: list, text: "Milk", dueDate: Date(timeIntervalSince1970: 1_740_848_400),
      shouldRemind: true)
    let web = try #require(model.checklist(id: list)?.item(id: id))
    let client = try CalendarTodo.read(Self.bytes(Self.clientTodo), zone: Self.berlin)
    let (clientModel, clientList, clientID) = try Self.stored(client)
    let stored = try #require(clientModel.checklist(id: clientList)?.item(id: clientID))
    for item in [web, stored] {
      let served = Self.document(item)
      let (again, againList, againID) = try Self.stored(
        try CalendarTodo.read(served, zone: Self.berlin))
      let written = try #require(again.checklist(id: againList)?.item(id: againID))
      #expect(try Self.lines(Self.document(written)) == Self.lines(served))
    }
  }

  @Test func anItemMadeOnTheWebIsWrittenFromItsFields() throws {
    var model = DataModel()
    let list = try model.addList(name: "Web", icon: .none)
    let id = try model.addItem(text: "Milk, 2 l; fresh", toList: list)
    try model.editItem(
      id: id, inList: list, text: "Milk, 2 l; fresh",
      dueDate: Date(timeIntervalSince1970: 1_740_848_400),
      shouldRemind: true)
    let item = try #require(model.checklist(id: list)?.item(id: id))
    #expect(
      try Self.lines(Self.document(item)) == [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Checklists//Checklists CalDAV//EN",
        "BEGIN:VTODO", "UID:web", "X-APPLE-SORT-ORDER:0", "DTSTAMP:19700101T000000Z",
        "SUMMARY:Milk\\, 2 l\\; fresh", "DUE:20250301T170000Z", "STATUS:NEEDS-ACTION",
        "BEGIN:VALARM",
        "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20250301T170000Z",
        "DESCRIPTION:Milk\\, 2 l\\; fresh", "END:VALARM", "END:VTODO", "END:VCALENDAR",
      ])
  }

  @Test(arguments: [
    // A date alone: 09:00 in the owner's zone, as the web's form takes it.
    ("DUE;VALUE=DATE:20250301", "Europe/Berlin", 1_740_816_000),
    ("DUE;VALUE=DATE:20250301", "Asia/Tokyo", 1_740_787_200),
    // Floating: the owner's zone.
    ("DUE:20250301T170000", "Asia/Tokyo", 1_740_816_000),
    // A zone the server knows, another unknown (read in the owner's zone).
    ("DUE;TZID=America/New_York:20250301T170000", "Asia/Tokyo", 1_740_866_400),
    ("DUE;TZID=/Europe/Berlin:20250301T170000", "Asia/Tokyo", 1_740_844_800),
    ("DUE;TZID=Custom Zone:20250301T170000", "Asia/Tokyo", 1_740_816_000),
    ("DUE:20250301T170000Z", "Asia/Tokyo", 1_740_848_400),
  ])
  func readsEveryFormOfDue(line: String, zone: String, seconds: Int) throws {
    let bytes = Self.bytes([
      "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", line, "END:VTODO", "END:VCALENDAR",
    ])
    let todo = try CalendarTodo.read(bytes, zone: TimeZone(identifier: zone)!)
    #expect(todo.dueDate == Date(timeIntervalSince1970: Double(seconds)))
    // Unchanged, the client's own line goes back.
    let (model, list, id) = try Self.stored(todo)
    let item = try #require(model.checklist(id: list)?.item(id: id))
    #expect(try Self.lines(Self.document(item, zone: TimeZone(identifier: zone)!)).contains(line))
  }

  @Test func statusMapsEitherWay() throws {
    func checked(_ lines: [String]) throws -> Bool {
      let bytes = Self.bytes(
        ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x"] + lines + [
          "END:VTODO", "END:VCALENDAR",
        ])
      return try CalendarTodo.read(bytes, zone: .gmt).checked
    }
    #expect(try checked(["STATUS:completed"]))
    #expect(try checked(["COMPLETED:20250101T000000Z"]))
    #expect(try !checked(["STATUS:IN-PROCESS", "COMPLETED:20250101T000000Z"]))
    #expect(try !checked(["STATUS:NEEDS-ACTION"]))
    #expect(try !checked([]))
  }

  @Test(arguments: [
    (
      ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:1", "SUMMARY:x", "END:VEVENT", "END:VCALENDAR"],
      CalendarTodoError.unsupportedComponent("VEVENT")
    ),
    (
      [
        "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "END:VTODO", "BEGIN:VTODO", "UID:2",
        "SUMMARY:y", "END:VTODO", "END:VCALENDAR",
      ], .moreThanOneTodo
    ),
    (["BEGIN:VCALENDAR", "VERSION:2.0", "END:VCALENDAR"], .noTodo),
    (["BEGIN:VTODO", "UID:1", "SUMMARY:x", "END:VTODO"], .notACalendar(found: "VTODO")),
    (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "END:VTODO", "END:VCALENDAR"], .badUID),
    (
      [
        "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:" + String(repeating: "u", count: 256), "SUMMARY:x",
        "END:VTODO", "END:VCALENDAR",
      ], .badUID
    ),
    (["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "END:VTODO", "END:VCALENDAR"], .noSummary),
    (
      ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:  \\n ", "END:VTODO", "END:VCALENDAR"],
      .text(.emptyText)
    ),
    (
      [
        "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1",
        "SUMMARY:" + String(repeating: "x", count: 1_001),
        "END:VTODO", "END:VCALENDAR",
      ], .text(.textTooLong(limit: 1_000))
    ),
    (
      [
        "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "DUE:tomorrow", "END:VTODO",
        "END:VCALENDAR",
      ], .badDueDate
    ),
    (
      [
        "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "DUE:19691231T235959Z", "END:VTODO",
        "END:VCALENDAR",
      ], .badDueDate
    ),
    (
      ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "END:VCALENDAR"],
      .syntax(.unbalanced(line: 5, reason: "END:VCALENDAR closes BEGIN:VTODO"))
    ),
  ])
  func refusesWhatIsNotOneToDo(lines: [String], error: CalendarTodoError) {
    #expect(throws: error) { try CalendarTodo.read(Self.bytes(lines), zone: .gmt) }
  }

  @Test func refusesMoreKeptLinesThanAnItemKeeps() {
    let notes = (0..<5).map { "X-NOTE-\($0):" + String(repeating: "n", count: 7_000) }
    let lines =
      ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x"] + notes + [
        "END:VTODO", "END:VCALENDAR",
      ]
    #expect(throws: CalendarTodoError.tooMuchKept(limit: CalendarTodo.maximumKeptBytes)) {
      try CalendarTodo.read(Self.bytes(lines), zone: .gmt)
    }
  }

  @Test func theExportCarriesWhatAClientWroteWithEachZoneOnce() throws {
    let todo = try CalendarTodo.read(Self.bytes(Self.clientTodo), zone: Self.berlin)
    var (model, list, _) = try Self.stored(todo)
    var second = todo
    second.uid = "second"
    try model.addItem(second.fields(resource: "second.ics"), toList: list)
    let lines = try Self.lines(
      CalendarExport.document(
        model, visitorKey: "key", exportedAt: Fixtures.exportedAt, zone: Self.berlin))
    #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 1)
    #expect(lines.filter { $0 == "PRIORITY:1" }.count == 2)
    #expect(lines.contains("UID:second") && lines.contains("UID:6F1A-client-uid"))
    #expect(lines.filter { $0 == "CATEGORIES:Tasks" }.count == 2)
  }
}

/// What the fuzzer found: a to-do's components are written back in their
/// order, and one inside a to-do that is neither an alarm nor a client's
/// own `X-` component is refused.
@Suite struct CalendarTodoComponentTests {
  static func bytes(_ lines: [String]) -> [UInt8] {
    Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  @Test func componentsKeepTheirOrderAndAlarmsFollowRemindMe() throws {
    let lines = [
      "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "BEGIN:X-FIRST", "X-A:1",
      "END:X-FIRST", "BEGIN:VALARM", "TRIGGER:-PT5M", "END:VALARM", "BEGIN:X-LAST", "X-B:2",
      "END:X-LAST", "END:VTODO", "END:VCALENDAR",
    ]
    let todo = try CalendarTodo.read(Self.bytes(lines), zone: .gmt)
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let id = try model.addItem(todo.fields(resource: "1.ics"), toList: list)
    func written() throws -> [String] {
      let item = try #require(model.checklist(id: list)?.item(id: id))
      let document = CalendarTodo.document(
        item, uid: "1", stamp: Date(timeIntervalSince1970: 0), sortOrder: nil, zone: .gmt)
      return try ContentLineReader.read(document).map(\.text).filter {
        $0.hasPrefix("BEGIN:X") || $0.hasPrefix("BEGIN:VALARM")
      }
    }
    #expect(try written() == ["BEGIN:X-FIRST", "BEGIN:VALARM", "BEGIN:X-LAST"])
    try model.editItem(id: id, inList: list, text: "x", dueDate: nil, shouldRemind: false)
    #expect(try written() == ["BEGIN:X-FIRST", "BEGIN:X-LAST"])
  }

  @Test(arguments: ["VTODO", "VTIMEZONE", "VEVENT"])
  func aComponentThatNoToDoHoldsIsRefused(name: String) {
    let lines = [
      "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:x", "BEGIN:\(name)", "UID:2",
      "END:\(name)", "END:VTODO", "END:VCALENDAR",
    ]
    #expect(throws: CalendarTodoError.unsupportedComponent(name)) {
      try CalendarTodo.read(Self.bytes(lines), zone: .gmt)
    }
  }
}
