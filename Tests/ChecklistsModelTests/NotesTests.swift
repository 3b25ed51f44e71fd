import ChecklistsModel
import Foundation
import Testing

/// An item's note: cleaned as typed (its lines kept), bounded, edited only
/// when a form sends it, and read back from a file.
@Suite struct NotesTests {
  @Test(arguments: [
    ("Gate code 4711\nSecond floor", "Gate code 4711\nSecond floor"),
    ("one\r\ntwo\rthree\u{2028}four", "one\ntwo\nthree\nfour"),
    ("\n\n  \nfirst  \n\n\tindented\t\n \n", "first\n\n\tindented"),
    ("bell\u{07} and\u{00} nul", "bell and nul"),
    ("   \r\n\t ", ""),
    ("Молоко, ёж и Straße", "Молоко, ёж и Straße"),
  ])
  func aNoteIsCleanedAsTypedWithItsLines(raw: String, clean: String) throws {
    #expect(try NoteInput.clean(raw) == clean)
  }

  @Test func aNotePastItsLimitsIsRefused() throws {
    let longest = String(repeating: "é", count: Limits.maximumNoteLength)
    #expect(try NoteInput.clean(longest) == longest)
    #expect(throws: ChecklistsError.noteTooLong(limit: Limits.maximumNoteLength)) {
      try NoteInput.clean(longest + "x")
    }
    // Few characters, many scalars: an accent piled on one letter.
    let piled = "a" + String(repeating: "\u{301}", count: Limits.maximumNoteScalars)
    #expect(throws: ChecklistsError.noteTooLarge) { try NoteInput.clean(piled) }
    // Within the characters and scalars, past the bytes: emoji with a
    // skin tone, 8 bytes each.
    let emoji = String(repeating: "👍🏽", count: Limits.maximumNoteBytes / 8 + 1)
    #expect(emoji.count <= Limits.maximumNoteLength)
    #expect(throws: ChecklistsError.noteTooLarge) { try NoteInput.clean(emoji) }
    #expect(ChecklistsError.noteTooLarge.message.hasSuffix("."))
    #expect(ChecklistsError.noteTooLong(limit: 1).message.hasSuffix("."))
  }

  @Test func editingAnItemSetsItsNoteOnlyWhenOneIsSent() throws {
    var model = DataModel()
    let list = try model.addList(name: "Home", icon: .none)
    let id = try model.addItem(text: "Boiler", toList: list)
    try model.editItem(
      id: id, inList: list, text: "Boiler", dueDate: nil, shouldRemind: false,
      notes: "Service number\r\n0800 123")
    #expect(model.checklist(id: list)?.item(id: id)?.notes == "Service number\n0800 123")
    // A form from before notes sends none: the note stays.
    try model.editItem(id: id, inList: list, text: "Boiler!", dueDate: nil, shouldRemind: false)
    #expect(model.checklist(id: list)?.item(id: id)?.notes == "Service number\n0800 123")
    // An empty one clears it.
    try model.editItem(
      id: id, inList: list, text: "Boiler!", dueDate: nil, shouldRemind: false, notes: " \n")
    #expect(model.checklist(id: list)?.item(id: id)?.notes == "")
    // A refused note changes nothing at all, the text neither.
    let before = model
    #expect(throws: ChecklistsError.noteTooLong(limit: Limits.maximumNoteLength)) {
      try model.editItem(
        id: id, inList: list, text: "Other", dueDate: nil, shouldRemind: true,
        notes: String(repeating: "x", count: Limits.maximumNoteLength + 1))
    }
    #expect(model == before)
  }

  /// A calendar app's `DESCRIPTION` said what the note said; once the note
  /// is edited on the web, the kept line goes (the alarm's stays).
  @Test func editingTheNoteDropsTheKeptDescription() throws {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    let kept =
      "DESCRIPTION:old note\nPRIORITY:1\nBEGIN:VALARM\nDESCRIPTION:Reminder\nEND:VALARM\ndescription;LANGUAGE=de:alt"
    let id = try model.addItem(
      CalendarItemFields(
        text: "Call", checked: false, dueDate: nil, shouldRemind: false, notes: "old note",
        calendar: CalendarData(uid: "u", resource: "u.ics", kept: kept)),
      toList: list)
    // Saving the same note keeps every line.
    try model.editItem(
      id: id, inList: list, text: "Call", dueDate: nil, shouldRemind: false, notes: "old note")
    #expect(model.checklist(id: list)?.item(id: id)?.calendar?.kept == kept)
    try model.editItem(
      id: id, inList: list, text: "Call", dueDate: nil, shouldRemind: false, notes: "new note")
    #expect(
      model.checklist(id: list)?.item(id: id)?.calendar?.kept
        == "PRIORITY:1\nBEGIN:VALARM\nDESCRIPTION:Reminder\nEND:VALARM")
  }

  @Test func aNoteIsEncodedOnlyWhenThereIsOneAndReadBack() throws {
    var model = DataModel()
    let list = try model.addList(name: "Home", icon: .none)
    let plain = try model.addItem(text: "Plain", toList: list)
    let noted = try model.addItem(text: "Noted", toList: list)
    try model.editItem(
      id: noted, inList: list, text: "Noted", dueDate: nil, shouldRemind: false,
      notes: "a < b & c\nline two")
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let data = try encoder.encode(model)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.components(separatedBy: "<key>notes</key>").count == 2)
    let decoded = try PropertyListDecoder().decode(DataModel.self, from: data)
    #expect(decoded == model)
    #expect(decoded.checklist(id: list)?.item(id: plain)?.notes == "")
    #expect(decoded.checklist(id: list)?.item(id: noted)?.notes == "a < b & c\nline two")
  }

  @Test func anImportedNoteIsCleanedAndARefusedOneNamesItsItem() throws {
    var model = DataModel()
    try model.addImported([
      ImportedList(name: "L", items: [ImportedItem(text: "A", notes: "x\r\ny  ")])
    ])
    #expect(model.lists[0].items[0].notes == "x\ny")
    let before = model
    do {
      try model.addImported([
        ImportedList(
          name: "M",
          items: [
            ImportedItem(text: "fine"),
            ImportedItem(
              text: "B", notes: String(repeating: "n", count: Limits.maximumNoteLength + 1)),
          ])
      ])
      Issue.record("a note too long was imported")
    } catch {
      #expect(error.list == 1 && error.item == 2)
      #expect(error.reason == .noteTooLong(limit: Limits.maximumNoteLength))
    }
    #expect(model == before)
  }

  /// A file is version 3 exactly while an item (Recently Deleted's too)
  /// has a note: a backend that reads version 2 refuses it rather than
  /// dropping the notes on its next write.
  @Test func aFileWithANoteIsVersionThree() throws {
    var model = DataModel()
    let list = try model.addList(name: "Home", icon: .none)
    let id = try model.addItem(text: "Boiler", toList: list)
    #expect(model.formatVersion == 2)
    try model.editItem(
      id: id, inList: list, text: "Boiler", dueDate: nil, shouldRemind: false, notes: "n")
    #expect(model.formatVersion == 3)
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let text = String(decoding: try encoder.encode(model), as: UTF8.self)
    #expect(text.contains("<key>version</key>\n\t<integer>3</integer>"))
    try model.deleteItem(id: id, inList: list, at: Date(timeIntervalSince1970: 0))
    #expect(model.formatVersion == 3)
    try model.deleteList(id: list, at: Date(timeIntervalSince1970: 0))
    #expect(model.formatVersion == 3)
    var cleared = DataModel()
    _ = try cleared.addList(name: "Plain", icon: .none)
    #expect(cleared.formatVersion == 2)
  }
}
