import ChecklistsModel
import Foundation
import XCTest

final class DataModelTests: XCTestCase {
  func testListsAreOrderedByNameCaseInsensitivelyWithTiesByID() throws {
    var model = DataModel()
    let zebra = try model.addList(name: "zebra", icon: .none)
    let bananaUpper = try model.addList(name: "Banana", icon: .none)
    let apple = try model.addList(name: "apple", icon: .none)
    let bananaLower = try model.addList(name: "banana", icon: .none)
    let bananaAgain = try model.addList(name: "Banana", icon: .none)
    XCTAssertEqual(model.lists.map(\.id), [apple, bananaUpper, bananaLower, bananaAgain, zebra])
    XCTAssertEqual(model.row(ofList: zebra), 4)
    XCTAssertEqual(model.checklist(atRow: 0)?.name, "apple")
  }

  func testOrderIsLocaleAwareAndNumeric() throws {
    var model = DataModel()
    for name in ["Zoo", "Éclair", "eclair", "Äpfel", "apple", "10 things", "2 things"] {
      try model.addList(name: name, icon: .none)
    }
    // Accents sort with their base letter (after it, not after "z"); numbers by value.
    XCTAssertEqual(
      model.lists.map(\.name),
      ["2 things", "10 things", "Äpfel", "apple", "eclair", "Éclair", "Zoo"])
  }

  func testRenamingMovesTheListAndKeepsItsID() throws {
    var model = DataModel()
    let a = try model.addList(name: "A", icon: .none)
    let b = try model.addList(name: "B", icon: .none)
    try model.updateList(id: a, name: "  C  ", icon: .trips)
    XCTAssertEqual(model.lists.map(\.id), [b, a])
    XCTAssertEqual(model.checklist(id: a), Checklist(id: a, name: "C", icon: .trips, items: []))
    XCTAssertThrowsError(try model.updateList(id: 99, name: "x", icon: .none)) {
      XCTAssertEqual($0 as? ChecklistsError, .noSuchList(99))
    }
  }

  func testIDsAreNeverReused() throws {
    var model = DataModel()
    let first = try model.addList(name: "One", icon: .none)
    let item = try model.addItem(text: "a", toList: first)
    try model.deleteItem(id: item, inList: first)
    let item2 = try model.addItem(text: "b", toList: first)
    try model.deleteList(id: first)
    let second = try model.addList(name: "Two", icon: .none)
    let item3 = try model.addItem(text: "c", toList: second)
    XCTAssertEqual(Set([first, second]).count, 2)
    XCTAssertEqual(Set([item, item2, item3]).count, 3)
    XCTAssertTrue([first, second, item, item2, item3].allSatisfy { $0 > 0 })
    XCTAssertGreaterThan(second, first)
    XCTAssertGreaterThan(item3, item2)
  }

  func testItemsAppendToggleEditDelete() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let a = try model.addItem(text: "a", toList: list)
    let b = try model.addItem(text: "b", toList: list)
    XCTAssertEqual(model.checklist(id: list)?.items.map(\.id), [a, b])
    XCTAssertTrue(try model.toggleItem(id: a, inList: list))
    XCTAssertFalse(try model.toggleItem(id: a, inList: list))
    try model.editItem(id: b, inList: list, text: " bee\n")
    XCTAssertEqual(model.checklist(id: list)?.item(id: b)?.text, "bee")
    try model.deleteItem(id: a, inList: list)
    XCTAssertNil(model.checklist(id: list)?.item(id: a))
    XCTAssertThrowsError(try model.toggleItem(id: a, inList: list)) {
      XCTAssertEqual($0 as? ChecklistsError, .noSuchItem(a))
    }
    XCTAssertThrowsError(try model.addItem(text: "x", toList: 42)) {
      XCTAssertEqual($0 as? ChecklistsError, .noSuchList(42))
    }
  }

  func testSubtitles() throws {
    var list = Checklist(id: 1, name: "L")
    XCTAssertEqual(list.subtitle, "(No Items)")
    list.items = [ChecklistItem(id: 1, text: "a"), ChecklistItem(id: 2, text: "b")]
    XCTAssertEqual(list.subtitle, "2 Remaining")
    list.items[0].checked = true
    XCTAssertEqual(list.subtitle, "1 Remaining")
    list.items[1].checked = true
    XCTAssertEqual(list.subtitle, "All Done!")
    XCTAssertEqual(list.uncheckedCount, 0)
  }

  func testIcons() {
    XCTAssertEqual(ChecklistIcon.allCases.count, 10)
    XCTAssertEqual(ChecklistIcon.none.displayName, "No Icon")
    XCTAssertEqual(ChecklistIcon.none.fileName, "no-icon")
    XCTAssertEqual(ChecklistIcon.groceries.displayName, "Groceries")
    XCTAssertEqual(ChecklistIcon.groceries.fileName, "groceries")
    XCTAssertEqual(DataModel.firstRun().lists.first?.icon, .folder)
  }

  func testListLimit() throws {
    var model = DataModel()
    for n in 0..<Limits.maximumLists { try model.addList(name: "L\(n)", icon: .none) }
    XCTAssertThrowsError(try model.addList(name: "one more", icon: .none)) {
      XCTAssertEqual($0 as? ChecklistsError, .tooManyLists(limit: 500))
    }
    XCTAssertEqual(model.lists.count, 500)
  }

  func testItemLimit() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    for n in 0..<Limits.maximumItemsPerList { try model.addItem(text: "i\(n)", toList: list) }
    XCTAssertThrowsError(try model.addItem(text: "one more", toList: list)) {
      XCTAssertEqual($0 as? ChecklistsError, .tooManyItems(limit: 5_000))
    }
  }

  func testRefusedChangesChangeNothing() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let before = model
    XCTAssertThrowsError(try model.addItem(text: "   ", toList: list))
    XCTAssertThrowsError(try model.addList(name: "\n\t", icon: .none))
    XCTAssertThrowsError(try model.updateList(id: list, name: "", icon: .trips))
    XCTAssertEqual(model, before)
  }

  func testCodableRoundTripAndSchemaChecks() throws {
    var model = DataModel.firstRun()
    let list = try model.addList(name: "Groceries", icon: .groceries)
    try model.addItem(text: "Milk", toList: list)
    let data = try PropertyListEncoder().encode(model)
    XCTAssertEqual(try PropertyListDecoder().decode(DataModel.self, from: data), model)

    let newer = try PropertyListSerialization.data(
      fromPropertyList: ["version": 99, "nextListID": 1, "nextItemID": 1, "lists": [Any]()],
      format: .xml, options: 0)
    XCTAssertThrowsError(try PropertyListDecoder().decode(DataModel.self, from: newer))

    let duplicate: [String: Any] = [
      "version": 1, "nextListID": 1, "nextItemID": 1,
      "lists": [
        ["id": 3, "name": "a", "icon": "none", "items": [[String: Any]]()],
        ["id": 3, "name": "b", "icon": "none", "items": [[String: Any]]()],
      ],
    ]
    let duplicateData = try PropertyListSerialization.data(
      fromPropertyList: duplicate, format: .xml, options: 0)
    XCTAssertThrowsError(try PropertyListDecoder().decode(DataModel.self, from: duplicateData))
  }

  func testDecodingRaisesStaleCountersAndSorts() throws {
    let plist: [String: Any] = [
      "version": 1, "nextListID": 1, "nextItemID": 1,
      "lists": [
        [
          "id": 7, "name": "b", "icon": "trips",
          "items": [["id": 9, "text": "x", "checked": true]],
        ],
        ["id": 2, "name": "A", "icon": "none", "items": [[String: Any]]()],
      ],
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    var model = try PropertyListDecoder().decode(DataModel.self, from: data)
    XCTAssertEqual(model.lists.map(\.id), [2, 7])
    XCTAssertEqual(try model.addList(name: "c", icon: .none), 8)
    XCTAssertEqual(try model.addItem(text: "y", toList: 2), 10)
  }
}
