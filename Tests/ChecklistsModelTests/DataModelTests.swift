import ChecklistsModel
import Foundation
import Testing

@Suite("The data model: lists, items, limits, identifiers and the stored form")
struct DataModelTests {
  @Test("Lists are ordered by name, case-insensitively, ties by identifier")
  func listsAreOrderedByNameCaseInsensitivelyWithTiesByID() throws {
    var model = DataModel()
    let zebra = try model.addList(name: "zebra", icon: .none)
    let bananaUpper = try model.addList(name: "Banana", icon: .none)
    let apple = try model.addList(name: "apple", icon: .none)
    let bananaLower = try model.addList(name: "banana", icon: .none)
    let bananaAgain = try model.addList(name: "Banana", icon: .none)
    #expect(model.lists.map(\.id) == [apple, bananaUpper, bananaLower, bananaAgain, zebra])
    #expect(model.row(ofList: zebra) == 4)
    #expect(model.checklist(atRow: 0)?.name == "apple")
  }

  @Test("The order follows the locale and reads numbers by value")
  func orderIsLocaleAwareAndNumeric() throws {
    var model = DataModel()
    for name in ["Zoo", "Éclair", "eclair", "Äpfel", "apple", "10 things", "2 things"] {
      try model.addList(name: name, icon: .none)
    }
    // Accents sort with their base letter (after it, not after "z"); numbers by value.
    #expect(
      model.lists.map(\.name) == [
        "2 things", "10 things", "Äpfel", "apple", "eclair", "Éclair", "Zoo",
      ])
  }

  @Test("Renaming moves the list and keeps its identifier")
  func renamingMovesTheListAndKeepsItsID() throws {
    var model = DataModel()
    let a = try model.addList(name: "A", icon: .none)
    let b = try model.addList(name: "B", icon: .none)
    try model.updateList(id: a, name: "  C  ", icon: .trips)
    #expect(model.lists.map(\.id) == [b, a])
    #expect(model.checklist(id: a) == Checklist(id: a, name: "C", icon: .trips, items: []))
    #expect(throws: ChecklistsError.noSuchList(99)) {
      try model.updateList(id: 99, name: "x", icon: .none)
    }
  }

  @Test("Identifiers are never reused")
  func idsAreNeverReused() throws {
    var model = DataModel()
    let first = try model.addList(name: "One", icon: .none)
    let item = try model.addItem(text: "a", toList: first)
    try model.deleteItem(id: item, inList: first, at: Date())
    let item2 = try model.addItem(text: "b", toList: first)
    try model.deleteList(id: first, at: Date())
    let second = try model.addList(name: "Two", icon: .none)
    let item3 = try model.addItem(text: "c", toList: second)
    #expect(Set([first, second]).count == 2)
    #expect(Set([item, item2, item3]).count == 3)
    #expect([first, second, item, item2, item3].allSatisfy { $0 > 0 })
    #expect(second > first)
    #expect(item3 > item2)
  }

  @Test("Items are appended, toggled, edited and deleted")
  func itemsAppendToggleEditDelete() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let a = try model.addItem(text: "a", toList: list)
    let b = try model.addItem(text: "b", toList: list)
    #expect(model.checklist(id: list)?.items.map(\.id) == [a, b])
    let checked = try model.toggleItem(id: a, inList: list)
    #expect(checked)
    let unchecked = try model.toggleItem(id: a, inList: list)
    #expect(!unchecked)
    try model.editItem(id: b, inList: list, text: " bee\n")
    #expect(model.checklist(id: list)?.item(id: b)?.text == "bee")
    try model.deleteItem(id: a, inList: list, at: Date())
    #expect(model.checklist(id: list)?.item(id: a) == nil)
    #expect(throws: ChecklistsError.noSuchItem(a)) {
      try model.toggleItem(id: a, inList: list)
    }
    #expect(throws: ChecklistsError.noSuchList(42)) {
      try model.addItem(text: "x", toList: 42)
    }
  }

  @Test("A list's subtitle counts what remains")
  func subtitles() throws {
    var list = Checklist(id: 1, name: "L")
    #expect(list.subtitle == "(No Items)")
    list.items = [ChecklistItem(id: 1, text: "a"), ChecklistItem(id: 2, text: "b")]
    #expect(list.subtitle == "2 Remaining")
    list.items[0].checked = true
    #expect(list.subtitle == "1 Remaining")
    list.items[1].checked = true
    #expect(list.subtitle == "All Done!")
    #expect(list.uncheckedCount == 0)
  }

  @Test("Icons have display names and file names; the first run's list has the folder")
  func icons() {
    #expect(ChecklistIcon.allCases.count == 10)
    #expect(ChecklistIcon.none.displayName == "No Icon")
    #expect(ChecklistIcon.none.fileName == "no-icon")
    #expect(ChecklistIcon.groceries.displayName == "Groceries")
    #expect(ChecklistIcon.groceries.fileName == "groceries")
    #expect(DataModel.firstRun().lists.first?.icon == .folder)
  }

  @Test("A visitor has at most 500 lists")
  func listLimit() throws {
    var model = DataModel()
    for n in 0..<Limits.maximumLists { try model.addList(name: "L\(n)", icon: .none) }
    #expect(throws: ChecklistsError.tooManyLists(limit: 500)) {
      try model.addList(name: "one more", icon: .none)
    }
    #expect(model.lists.count == 500)
  }

  @Test("A list has at most 5,000 items")
  func itemLimit() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    for n in 0..<Limits.maximumItemsPerList { try model.addItem(text: "i\(n)", toList: list) }
    #expect(throws: ChecklistsError.tooManyItems(limit: 5_000)) {
      try model.addItem(text: "one more", toList: list)
    }
  }

  @Test("A refused change changes nothing")
  func refusedChangesChangeNothing() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let before = model
    #expect(throws: (any Error).self) { try model.addItem(text: "   ", toList: list) }
    #expect(throws: (any Error).self) { try model.addList(name: "\n\t", icon: .none) }
    #expect(throws: (any Error).self) { try model.updateList(id: list, name: "", icon: .trips) }
    #expect(model == before)
  }

  @Test(
    "The model survives a property-list round trip; a newer version or a repeated identifier is refused"
  )
  func codableRoundTripAndSchemaChecks() throws {
    var model = DataModel.firstRun()
    let list = try model.addList(name: "Groceries", icon: .groceries)
    try model.addItem(text: "Milk", toList: list)
    let data = try PropertyListEncoder().encode(model)
    #expect(try PropertyListDecoder().decode(DataModel.self, from: data) == model)

    let newer = try PropertyListSerialization.data(
      fromPropertyList: ["version": 99, "nextListID": 1, "nextItemID": 1, "lists": [Any]()],
      format: .xml, options: 0)
    #expect(throws: (any Error).self) {
      try PropertyListDecoder().decode(DataModel.self, from: newer)
    }

    let duplicate: [String: Any] = [
      "version": 1, "nextListID": 1, "nextItemID": 1,
      "lists": [
        ["id": 3, "name": "a", "icon": "none", "items": [[String: Any]]()],
        ["id": 3, "name": "b", "icon": "none", "items": [[String: Any]]()],
      ],
    ]
    let duplicateData = try PropertyListSerialization.data(
      fromPropertyList: duplicate, format: .xml, options: 0)
    #expect(throws: (any Error).self) {
      try PropertyListDecoder().decode(DataModel.self, from: duplicateData)
    }
  }

  @Test("Decoding raises counters that lag behind the identifiers and sorts the lists")
  func decodingRaisesStaleCountersAndSorts() throws {
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
    #expect(model.lists.map(\.id) == [2, 7])
    let listID = try model.addList(name: "c", icon: .none)
    #expect(listID == 8)
    let itemID = try model.addItem(text: "y", toList: 2)
    #expect(itemID == 10)
  }
}
