import ChecklistsModel
import Foundation
import ICalendar
import Testing

@testable import Interchange

/// An item's note in the files it travels in: JSON's `notes` both ways, a
/// to-do's `DESCRIPTION` both ways (a note written by a calendar app shows
/// on the web, and one written on the web reaches the app).
@Suite struct NotesInterchangeTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!

  static func model(notes: String) throws -> (DataModel, list: Int, item: Int) {
    var model = DataModel()
    let list = try model.addList(name: "Home", icon: .none)
    let item = try model.addItem(text: "Boiler", toList: list)
    try model.editItem(
      id: item, inList: list, text: "Boiler", dueDate: nil, shouldRemind: false, notes: notes)
    _ = try model.addItem(text: "No note", toList: list)
    return (model, list, item)
  }

  @Test func theJSONExportCarriesANoteAndItsImportReadsItBack() throws {
    let note = "Service: 0800 \"123\"\n\tsecond line with \\ and Ё"
    let (model, _, _) = try Self.model(notes: note)
    let exported = JSONExport.document(model, exportedAt: Date(timeIntervalSince1970: 0))
    let text = String(decoding: exported, as: UTF8.self)
    #expect(text.contains(#""notes": "Service: 0800 \"123\"\n\tsecond line with \\ and Ё""#))
    // An item without a note has no member at all.
    #expect(text.components(separatedBy: "\"notes\"").count == 2)
    let lists = try JSONImport.lists(from: exported)
    #expect(lists[0].items.map(\.notes) == [note, ""])
    var other = DataModel()
    try other.addImported(lists)
    #expect(other.lists[0].items.map(\.notes) == [note, ""])
  }

  @Test func aJSONNoteThatIsNotATextIsRefused() throws {
    let document = Array(
      #"{"format": "checklists", "version": 1, "lists": [{"name": "L", "items": [{"text": "A", "checked": false, "notes": 7}]}]}"#
        .utf8)
    #expect(throws: ImportFailure.self) { try JSONImport.lists(from: document) }
  }

  static func todo(_ extra: [String]) -> [UInt8] {
    let lines =
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO", "UID:note-1"]
      + extra + ["SUMMARY:Call", "END:VTODO", "END:VCALENDAR"]
    return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  static func stored(_ bytes: [UInt8]) throws -> (DataModel, list: Int, item: Int) {
    let todo = try CalendarTodo.read(bytes, zone: berlin)
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    let item = try model.addItem(todo.fields(resource: "note-1.ics"), toList: list)
    return (model, list, item)
  }

  static func written(_ model: DataModel, list: Int, item: Int) throws -> [String] {
    let item = try #require(model.checklist(id: list)?.item(id: item))
    let bytes = CalendarTodo.document(
      item, uid: item.calendar?.uid ?? "web", stamp: Date(timeIntervalSince1970: 0), sortOrder: 0,
      zone: berlin)
    return try ContentLineReader.read(bytes).map(\.text)
  }

  @Test func aDescriptionIsTheNoteAndComesBackAsItWasWritten() throws {
    let line = "DESCRIPTION;LANGUAGE=ru:Позвонить после 9\\, спросить Ёлку\\nвторая строка "
    let (model, list, item) = try Self.stored(Self.todo([line]))
    #expect(
      model.checklist(id: list)?.item(id: item)?.notes
        == "Позвонить после 9, спросить Ёлку\nвторая строка")
    let written = try Self.written(model, list: list, item: item)
    #expect(written.filter { $0.hasPrefix("DESCRIPTION") } == [line])
  }

  @Test func aNoteEditedOnTheWebReplacesTheDescription() throws {
    var (model, list, item) = try Self.stored(
      Self.todo([
        "DESCRIPTION:old", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M",
        "DESCRIPTION:Alarm", "END:VALARM",
      ]))
    try model.editItem(
      id: item, inList: list, text: "Call", dueDate: nil, shouldRemind: true,
      notes: "new; with, commas\nand a line")
    var written = try Self.written(model, list: list, item: item)
    #expect(written.contains("DESCRIPTION:new\\; with\\, commas\\nand a line"))
    #expect(!written.contains("DESCRIPTION:old"))
    #expect(written.contains("DESCRIPTION:Alarm"))
    // Cleared on the web: no DESCRIPTION of the to-do's own, the alarm's stays.
    try model.editItem(
      id: item, inList: list, text: "Call", dueDate: nil, shouldRemind: true, notes: "")
    written = try Self.written(model, list: list, item: item)
    #expect(written.filter { $0.hasPrefix("DESCRIPTION") } == ["DESCRIPTION:Alarm"])
    // And what is written reads back as the same note.
    try model.editItem(
      id: item, inList: list, text: "Call", dueDate: nil, shouldRemind: false, notes: "x\ny")
    let again = try CalendarTodo.read(
      Array(
        (try Self.written(model, list: list, item: item).joined(separator: "\r\n") + "\r\n").utf8),
      zone: Self.berlin)
    #expect(again.notes == "x\ny")
  }

  @Test func anItemMadeOnTheWebWithANoteHasADescription() throws {
    var model = DataModel()
    let list = try model.addList(name: "Web", icon: .none)
    let item = try model.addItem(text: "Milk", toList: list)
    #expect(
      try !Self.written(model, list: list, item: item).contains { $0.hasPrefix("DESCRIPTION") })
    try model.editItem(
      id: item, inList: list, text: "Milk", dueDate: nil, shouldRemind: false, notes: "2 l")
    #expect(try Self.written(model, list: list, item: item).contains("DESCRIPTION:2 l"))
  }

  /// An item a calendar app wrote before notes existed keeps its
  /// `DESCRIPTION` only among the kept lines, with no note: it is written
  /// back unchanged, not dropped.
  @Test func aDescriptionKeptFromBeforeNotesIsWrittenBack() throws {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    let item = try model.addItem(
      CalendarItemFields(
        text: "Call", checked: false, dueDate: nil, shouldRemind: false,
        calendar: CalendarData(
          uid: "note-1", resource: "note-1.ics", kept: "SUMMARY:Call\nDESCRIPTION:from before")),
      toList: list)
    #expect(try Self.written(model, list: list, item: item).contains("DESCRIPTION:from before"))
  }

  @Test func aDescriptionTooLongForANoteIsRefused() throws {
    let long = "DESCRIPTION:" + String(repeating: "x", count: Limits.maximumNoteLength + 1)
    #expect(throws: CalendarTodoError.notes(.noteTooLong(limit: Limits.maximumNoteLength))) {
      try CalendarTodo.read(Self.todo([long]), zone: Self.berlin)
    }
  }
}
