import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Interchange

/// Reading a JSON export back: the same lists after a round trip, the
/// documented files, and what the format leaves open (optional members,
/// dates with offsets, a byte order mark).
@Suite struct JSONImportTests {
  static func document(lists: String) -> [UInt8] {
    Array(#"{"format": "checklists", "version": 1, "lists": [\#(lists)]}"#.utf8)
  }

  static func items(_ items: String, list: String = #""name": "L""#) -> [UInt8] {
    document(lists: "{\(list), \"items\": [\(items)]}")
  }

  @Test func anExportImportedIntoAnotherModelGivesTheSameLists() throws {
    let model = try Fixtures.model()
    let lists = try JSONImport.lists(
      from: JSONExport.document(model, exportedAt: Fixtures.exportedAt))
    #expect(lists == Fixtures.imported(model))
    var other = DataModel()
    try other.addImported(lists)
    #expect(Fixtures.imported(other) == Fixtures.imported(model))
    // Names, icons, sorts, texts, checkmarks, due dates, reminders, order.
    #expect(other.lists.map(\.name) == model.lists.map(\.name))
    #expect(other.lists.flatMap(\.items).map(\.text) == model.lists.flatMap(\.items).map(\.text))
    #expect(other.deletions.isEmpty)
    // And again: an export of the imported lists is the same file, ids aside.
    let again = try JSONImport.lists(
      from: JSONExport.document(other, exportedAt: Fixtures.exportedAt))
    #expect(again == lists)
  }

  /// The reader keeps raw texts; what the model refuses is refused as a
  /// whole, naming the list and item.
  @Test func aTextTheModelRefusesRefusesTheWholeFile() throws {
    let lists = try JSONImport.lists(
      from: Self.document(
        lists: #"""
          {"name": "Fine", "items": [{"text": "ok", "checked": false}]},
          {"name": "Trips", "items": [{"text": "ok", "checked": false}, {"text": " \t\n ", "checked": true}]}
          """#))
    var model = DataModel.firstRun()
    #expect(throws: ImportRefusal.self) { try model.addImported(lists) }
    do {
      try model.addImported(lists)
    } catch {
      #expect(
        error.message == "Item 2 of list 2 (“Trips”) cannot be imported. Please type some text.")
    }
    #expect(model == DataModel.firstRun())
  }

  @Test func importedListsGoBesideTheExistingOnes() throws {
    let exported = JSONExport.document(
      try Fixtures.documentedModel(), exportedAt: Fixtures.exportedAt)
    var model = try Fixtures.documentedModel()
    try model.addImported(try JSONImport.lists(from: exported))
    #expect(
      model.lists.map(\.name) == ["Groceries", "Groceries", "Ideas", "Ideas", "Trips", "Trips"])
    #expect(Set(model.lists.map(\.id)).count == 6)
  }

  @Test func everyDocumentedExampleReads() throws {
    let blocks = try Fixtures.documentedJSON()
    #expect(blocks.count == 2)
    #expect(
      try JSONImport.lists(from: Array(blocks[0].utf8))
        == Fixtures.imported(try Fixtures.documentedModel()))
    let handWritten = try JSONImport.lists(from: Array(blocks[1].utf8))
    #expect(
      handWritten == [
        ImportedList(
          name: "Packing", icon: .folder, sort: .own,
          items: [
            ImportedItem(text: "Passport"),
            ImportedItem(
              text: "Charger", checked: true, dueDate: Fixtures.date("2025-06-01T07:00:00Z")),
          ])
      ])
  }

  @Test func optionalMembersHaveTheirDefaultsAndUnknownOnesArePassedOver() throws {
    let lists = try JSONImport.lists(
      from: Self.document(
        lists: #"""
          {"name": "A", "items": [], "icon": null, "sort": null, "id": "not read", "colour": [1, {"x": []}]},
          {"name": "B", "items": [{"text": "t", "checked": false, "dueDate": null, "shouldRemind": null, "id": -3}], "icon": "unicorns"},
          {"name": "C", "items": [{"text": "u", "checked": true, "shouldRemind": true}], "icon": "none", "sort": "dueDate"}
          """#))
    #expect(
      lists == [
        ImportedList(name: "A", icon: .folder, sort: .own),
        ImportedList(name: "B", icon: .folder, items: [ImportedItem(text: "t")]),
        ImportedList(
          name: "C", icon: .none, sort: .dueDate,
          items: [ImportedItem(text: "u", checked: true, shouldRemind: true)]),
      ])
    for icon in ChecklistIcon.allCases {
      let read = try JSONImport.lists(
        from: Self.document(lists: #"{"name": "x", "icon": "\#(icon.rawValue)", "items": []}"#))
      #expect(read.first?.icon == icon)
    }
  }

  @Test func rawTextsAreKeptForTheModelToClean() throws {
    let lists = try JSONImport.lists(
      from: Self.items(#"{"text": "  tab\there\u0000 \ud83d\ude00 \u00e9\/ ", "checked": false}"#))
    #expect(lists.first?.items.first?.text == "  tab\there\u{0} 😀 é/ ")
  }

  @Test(arguments: [
    ("2025-03-01T17:00:00Z", 1_740_848_400),
    ("2025-03-01t17:00:00z", 1_740_848_400),
    ("2025-03-01T17:00:00.999Z", 1_740_848_400),
    ("2025-03-01T17:00:00.1234567890123+00:00", 1_740_848_400),
    ("2025-03-01T18:30:00+01:30", 1_740_848_400),
    ("2025-03-01T12:00:00-05:00", 1_740_848_400),
    ("2025-03-01T17:00:00-00:00", 1_740_848_400),
    ("2024-02-29T00:00:00Z", 1_709_164_800),
    ("1970-01-01T00:00:00Z", 0),
    ("1970-01-01T01:00:00+01:00", 0),
    ("9999-12-31T23:59:59Z", 253_402_300_799),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799),
    ("2016-12-31T23:59:60Z", 1_483_228_799),
  ])
  func dueDatesReadAsRFC3339(text: String, seconds: Int) throws {
    let lists = try JSONImport.lists(
      from: Self.items(#"{"text": "t", "checked": false, "dueDate": "\#(text)"}"#))
    #expect(lists.first?.items.first?.dueDate == Date(timeIntervalSince1970: Double(seconds)))
  }

  @Test func aByteOrderMarkAndWhiteSpaceAroundAreAllowed() throws {
    let lists = try JSONImport.lists(
      from: [0xEF, 0xBB, 0xBF] + Array(" \r\n\t".utf8) + Self.document(lists: "")
        + Array("\n\n".utf8))
    #expect(lists.isEmpty)
  }

  @Test func theLimitsThemselvesAreRead() throws {
    let item = #"{"text": "x", "checked": false}"#
    let full = try JSONImport.lists(
      from: Self.items(
        Array(repeating: item, count: Limits.maximumItemsPerList).joined(separator: ",")))
    #expect(full.first?.items.count == Limits.maximumItemsPerList)
    let many = try JSONImport.lists(
      from: Self.document(
        lists: Array(repeating: #"{"name": "n", "items": []}"#, count: Limits.maximumLists)
          .joined(separator: ",")))
    #expect(many.count == Limits.maximumLists)
  }

  @Test func sniffingLooksAtTheFirstByteOnly() {
    #expect(JSONImport.looksLike(Array("{".utf8)))
    #expect(JSONImport.looksLike(Array(" \n\t\r{\"format\"".utf8)))
    #expect(JSONImport.looksLike([0xEF, 0xBB, 0xBF] + Array("\n{}".utf8)))
    for other in ["", "   ", "[{}]", "# Groceries\n- [ ] Milk", "<?xml", "bplist00", "\u{FEFF}x{"] {
      #expect(!JSONImport.looksLike(Array(other.utf8)), "\(other.debugDescription)")
    }
    #expect(!JSONImport.looksLike([0xFF, 0xFE, 0x7B, 0x00]))
  }

  @Test func aLongExportReadsQuickly() throws {
    var model = DataModel()
    let list = try model.addList(name: "Long", icon: .folder)
    for number in 0..<Limits.maximumItemsPerList {
      let id = try model.addItem(
        text: "Item number \(number), with \"quotes\" and ünïcødé", toList: list)
      if number % 2 == 0 {
        try model.editItem(
          id: id, inList: list, text: "Item number \(number)",
          dueDate: Date(timeIntervalSince1970: Double(1_740_000_000 + number * 60)),
          shouldRemind: true)
      }
    }
    let exported = JSONExport.document(model, exportedAt: Fixtures.exportedAt)
    let start = ContinuousClock.now
    let lists = try JSONImport.lists(from: exported)
    let elapsed = ContinuousClock.now - start
    #expect(lists == Fixtures.imported(model))
    // A debug build on a busy machine; release is measured in bench-web.
    #expect(elapsed < .seconds(5))
  }
}
