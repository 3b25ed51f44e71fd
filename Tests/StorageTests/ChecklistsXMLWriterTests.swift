import ChecklistsModel
import Foundation
import Testing

@testable import Storage

/// The direct writer must produce exactly what Foundation's encoder writes,
/// so that nothing about the file changes but the time it takes.
@Suite struct ChecklistsXMLWriterTests {
  private func foundation(_ model: DataModel) throws -> [UInt8] {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return Array(try encoder.encode(model))
  }

  @Test func emptyModelMatchesFoundation() throws {
    let model = DataModel()
    #expect(
      String(decoding: ChecklistsXMLWriter.document(model), as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
  }

  @Test func listsItemsAndMarkupCharactersMatchFoundation() throws {
    var model = DataModel()
    let groceries = try model.addList(
      name: "Fish & <Chips> \"today\" 'ok' ünïcödé 🐟", icon: .groceries)
    _ = try model.addList(name: "Empty", icon: .none)
    let first = try model.addItem(text: "a < b && c > d", toList: groceries)
    _ = try model.addItem(text: "]]> <![CDATA[ x", toList: groceries)
    _ = try model.toggleItem(id: first, inList: groceries)
    let noted = try model.addItem(text: "Noted", toList: groceries)
    try model.editItem(
      id: noted, inList: groceries, text: "Noted", dueDate: nil, shouldRemind: true,
      notes: "a & <b>\n\tc ]]> \"d\"\n\nÄ")
    let document = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: document, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    #expect(try ChecklistsFile.decode(Data(document)) == model)
  }

  /// An item a calendar app wrote keeps its `UID`, resource name and kept
  /// lines in the file, through a deletion and its undo too; a file from
  /// before them reads as items without.
  @Test func calendarDataMatchesFoundationAndSurvivesADeletion() throws {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    let kept = "DESCRIPTION:a & <b>\\, c\nPRIORITY:1\nBEGIN:VALARM\nTRIGGER:-PT5M\nEND:VALARM"
    let calendar = CalendarData(uid: "A&B-1", resource: "A&B-1.ics", kept: kept)
    let item = try model.addItem(
      CalendarItemFields(
        text: "Call", checked: true, dueDate: Date(timeIntervalSince1970: 1_740_848_400),
        shouldRemind: true, calendar: calendar),
      toList: list)
    _ = try model.addItem(text: "Plain", toList: list)
    let document = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: document, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    #expect(try ChecklistsFile.decode(Data(document)) == model)
    #expect(model.checklist(id: list)?.item(id: item)?.calendar == calendar)

    let deletion = try model.deleteItem(id: item, inList: list, at: Date(timeIntervalSince1970: 0))
    let afterDeletion = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: afterDeletion, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    var restored = try ChecklistsFile.decode(Data(afterDeletion))
    _ = try restored.restore(deletion: deletion)
    #expect(restored.checklist(id: list)?.item(id: item)?.calendar == calendar)
  }

  /// A list a calendar app made keeps the name it chose, written as
  /// Foundation writes it and read back, through a deletion too; one that
  /// is not a `CalendarName` (a hand-edited file) reads as none.
  @Test func aCalendarNameMatchesFoundationAndReadsBack() throws {
    var model = DataModel()
    let list = try model.addList(name: "Garden", calendarName: "A1-b.c_d~e")
    _ = try model.addList(name: "Web", icon: .none)
    let document = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: document, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    #expect(try ChecklistsFile.decode(Data(document)) == model)
    #expect(model.checklist(id: list)?.calendarName == "A1-b.c_d~e")
    _ = try model.deleteList(id: list, at: Date(timeIntervalSince1970: 0))
    let deleted = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: deleted, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    #expect(try ChecklistsFile.decode(Data(deleted)).deletions.first?.list?.calendarName != nil)

    let edited = String(decoding: document, as: UTF8.self).replacingOccurrences(
      of: "<string>A1-b.c_d~e</string>", with: "<string>../1</string>")
    let read = try ChecklistsFile.decode(Data(edited.utf8))
    #expect(read.checklist(id: list)?.calendarName == nil)
  }

  /// A list's change log is written as Foundation writes it and read back
  /// (the list's equality leaves it out, so it is compared itself); a list
  /// without one writes no `changes` key, so older files keep their bytes.
  @Test func aChangeLogMatchesFoundationAndReadsBack() throws {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    #expect(
      !String(decoding: ChecklistsXMLWriter.document(model), as: UTF8.self).contains("changes"))
    let stored = model
    _ = try model.addItem(text: "One", toList: list)
    model.recordChanges(since: stored)
    let document = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: document, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    let read = try ChecklistsFile.decode(Data(document))
    #expect(read.checklist(id: list)?.changes == model.checklist(id: list)?.changes)
    #expect(read.checklist(id: list)?.changes.names(after: 0)?.count == 1)

    // A client's properties on the collection: the same, and read back.
    let colour = CollectionProperty(
      namespace: "http://apple.com/ns/ical/", name: "calendar-color", value: "#FF2968FF & <x/>")
    #expect(try model.changeProperties(ofList: list, setting: [colour], removing: []))
    let withColour = ChecklistsXMLWriter.document(model)
    #expect(
      String(decoding: withColour, as: UTF8.self)
        == String(decoding: try foundation(model), as: UTF8.self))
    #expect(try ChecklistsFile.decode(Data(withColour)).checklist(id: list)?.properties == [colour])
  }

  @Test func randomModelsMatchFoundationAndReadBack() throws {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ab <>&\"'é🙂xyz0123")
    func text() -> String {
      "x"
        + String(
          (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement()! })
    }
    for _ in 0..<50 {
      var model = DataModel()
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        let list = try model.addList(
          name: text(), icon: ChecklistIcon.allCases.randomElement(using: &generator)!)
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
          let item = try model.addItem(text: text(), toList: list)
          if Bool.random(using: &generator) { _ = try model.toggleItem(id: item, inList: list) }
          if Bool.random(using: &generator) {
            // Any second from 1970 to 9999, with a fraction the model drops.
            let seconds = Double.random(in: 0...253_402_300_799.9, using: &generator)
            try model.editItem(
              id: item, inList: list, text: "dated", dueDate: Date(timeIntervalSince1970: seconds),
              shouldRemind: Bool.random(using: &generator))
          }
        }
        if Bool.random(using: &generator) { try model.setSort(.dueDate, ofList: list) }
        let items = model.checklist(id: list)!.items
        if let item = items.randomElement(using: &generator) {
          try model.deleteItem(
            id: item.id, inList: list, at: Date(),
            by: [.owner, .editLink, .app].randomElement(using: &generator)!)
        }
        if Bool.random(using: &generator) {
          try model.deleteList(id: list, at: Date(timeIntervalSince1970: 1_790_000_000))
        }
      }
      let document = ChecklistsXMLWriter.document(model)
      #expect(document == (try foundation(model)))
      #expect(try ChecklistsFile.decode(Data(document)) == model)
    }
  }
}
