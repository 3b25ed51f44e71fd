import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Interchange

/// The iCalendar export: a `VTODO` for every item, read back by our own
/// line reader and by Python's `icalendar`.
@Suite struct CalendarExportTests {
  let directory = TemporaryDirectory("calendar-export")
  static let key = String(repeating: "ab", count: 32)

  static func export(_ model: DataModel, key: String = key) -> [UInt8] {
    CalendarExport.document(model, visitorKey: key, exportedAt: Fixtures.exportedAt)
  }

  /// The content lines: CRLF ends, at most 75 octets, unfolded.
  static func contentLines(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("\r\n"))
    var lines: [String] = []
    for physical in String(decoding: bytes.dropLast(2), as: UTF8.self).components(
      separatedBy: "\r\n")
    {
      #expect(physical.utf8.count <= 75 && !physical.contains("\n") && !physical.contains("\r"))
      if physical.hasPrefix(" ") {
        lines[lines.count - 1] += physical.dropFirst()
      } else {
        lines.append(physical)
      }
    }
    return lines
  }

  /// The to-dos, each as its lines between `BEGIN:VTODO` and `END:VTODO`.
  static func todos(_ lines: [String]) -> [[String]] {
    var todos: [[String]] = []
    var inside = false
    for line in lines {
      switch line {
      case "BEGIN:VTODO":
        todos.append([])
        inside = true
      case "END:VTODO": inside = false
      default: if inside { todos[todos.count - 1].append(line) }
      }
    }
    return todos
  }

  @Test func everyItemIsAToDoWithItsStatusDueDateListAndAlarm() throws {
    let model = try Fixtures.documentedModel()
    let lines = Self.contentLines(Self.export(model))
    #expect(
      Array(lines.prefix(4)) == [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Checklists//Checklists Export//EN",
        "CALSCALE:GREGORIAN",
      ])
    #expect(lines.last == "END:VCALENDAR")
    let salt = CalendarUID.salt(visitorKey: Self.key)
    #expect(
      Self.todos(lines) == [
        [
          "UID:todo-1-\(salt)@checklists", "DTSTAMP:20250301T120000Z", "SUMMARY:Milk",
          "STATUS:NEEDS-ACTION", "CATEGORIES:Groceries",
        ],
        [
          "UID:todo-2-\(salt)@checklists", "DTSTAMP:20250301T120000Z",
          #"SUMMARY:Eggs\, "free range""#, "STATUS:COMPLETED", "CATEGORIES:Groceries",
        ],
        [
          "UID:todo-3-\(salt)@checklists", "DTSTAMP:20250301T120000Z", "SUMMARY:Order the cake",
          "DUE:20250301T170000Z", "STATUS:NEEDS-ACTION", "CATEGORIES:Groceries", "BEGIN:VALARM",
          "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20250301T170000Z",
          "DESCRIPTION:Order the cake", "END:VALARM",
        ],
        [
          "UID:todo-4-\(salt)@checklists", "DTSTAMP:20250301T120000Z", "SUMMARY:Pack",
          "STATUS:NEEDS-ACTION", "CATEGORIES:Trips",
        ],
        [
          "UID:todo-5-\(salt)@checklists", "DTSTAMP:20250301T120000Z", "SUMMARY:Book the train",
          "DUE:20250410T083000Z", "STATUS:NEEDS-ACTION", "CATEGORIES:Trips",
        ],
      ])
  }

  @Test func theDocumentedToDoIsWhatTheExportWrites() throws {
    let documented = try String(
      contentsOfFile: BuiltTool.packageRoot + "/docs/export-format.md", encoding: .utf8)
    let lines = Self.contentLines(Self.export(try Fixtures.documentedModel()))
    let todo = try #require(Self.todos(lines).first { $0.contains("SUMMARY:Order the cake") })
    let salt = CalendarUID.salt(visitorKey: Self.key)
    let block = (["BEGIN:VTODO"] + todo + ["END:VTODO"]).joined(separator: "\n")
      .replacingOccurrences(of: salt, with: "0f1e2d3c4b5a69788796a5b4c3d2e1f0")
    #expect(documented.contains("```\n" + block + "\n```\n"))
  }

  @Test func aUIDStaysWithItsItemAndIsTheOwners() throws {
    var model = try Fixtures.documentedModel()
    let before = Self.todos(Self.contentLines(Self.export(model)))
    let groceries = model.lists[0].id
    try model.editItem(id: 1, inList: groceries, text: "Oat milk")
    try model.moveItem(id: 1, inList: groceries, to: .after(itemID: 3))
    let after = Self.todos(Self.contentLines(Self.export(model)))
    func uid(ofSummary summary: String, in todos: [[String]]) -> String? {
      todos.first { $0.contains("SUMMARY:" + summary) }?.first { $0.hasPrefix("UID:") }
    }
    #expect(uid(ofSummary: "Oat milk", in: after) == uid(ofSummary: "Milk", in: before))
    // The feed's salt with another prefix: never the feed's event UID.
    let other = Self.todos(
      Self.contentLines(Self.export(model, key: String(repeating: "cd", count: 32))))
    #expect(Set(after.map { $0[0] }).isDisjoint(with: other.map { $0[0] }))
    for todo in after {
      #expect(todo[0].hasPrefix("UID:todo-") && !todo[0].contains(Self.key.prefix(16)))
    }
  }

  /// Python's `icalendar` reads every to-do of the fixtures (hostile texts,
  /// the first and last second, an empty list, a list of a hostile name)
  /// with its text, status, due date, list and alarm.
  @Test func pythonsICalendarReadsItBack() throws {
    let model = try Fixtures.model()
    let path = directory.appending("export.ics")
    FileManager.default.createFile(atPath: path, contents: Data(Self.export(model)))
    let output = try Python.run(Self.reader, arguments: [path], in: directory)
    let read = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    let items = model.lists.flatMap { list in list.items.map { (list.name, $0) } }
    #expect(read.count == items.count)
    let formatter = ISO8601DateFormatter()
    for ((listName, item), todo) in zip(items, read) {
      #expect(todo["summary"] as? String == item.text)
      #expect(todo["status"] as? String == (item.checked ? "COMPLETED" : "NEEDS-ACTION"))
      #expect(todo["due"] as? String == item.dueDate.map { formatter.string(from: $0) })
      #expect(todo["categories"] as? [String] == [listName])
      #expect(todo["stamp"] as? String == "2025-03-01T12:00:00Z")
      let alarms = todo["alarms"] as? [String]
      #expect(
        alarms == (item.shouldRemind ? item.dueDate.map { [formatter.string(from: $0)] } ?? [] : [])
      )
    }
    #expect(Set(read.compactMap { $0["uid"] as? String }).count == items.count)
  }

  static let reader = #"""
    import json, sys, datetime
    import icalendar
    calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
    def utc(value):
        moment = value.dt
        assert moment.utcoffset() == datetime.timedelta(0), moment
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    todos = []
    for todo in calendar.walk("VTODO"):
        categories = todo.get("CATEGORIES")
        todos.append({
            "uid": str(todo["UID"]),
            "summary": str(todo["SUMMARY"]),
            "status": str(todo["STATUS"]),
            "due": utc(todo["DUE"]) if "DUE" in todo else None,
            "stamp": utc(todo["DTSTAMP"]),
            "categories": [str(name) for name in categories.cats],
            "alarms": [utc(alarm["TRIGGER"]) for alarm in todo.walk("VALARM")],
        })
    print(json.dumps(todos))
    """#
}
