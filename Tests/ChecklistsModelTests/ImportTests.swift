import ChecklistsModel
import Foundation
import Testing

@Suite("Adding imported lists: new ids beside the existing lists, all or nothing")
struct ImportTests {
  private func visitorWithOneList() throws -> DataModel {
    var model = DataModel()
    let list = try model.addList(name: "Mine", icon: .chores)
    try model.addItem(text: "Keep me", toList: list)
    return model
  }

  @Test("Imported lists get new ids above the existing ones and keep every field")
  func importedListsGetNewIDsAndKeepEveryField() throws {
    var model = try visitorWithOneList()
    let before = model
    let due = Date(timeIntervalSince1970: 1_800_000_000.75)
    let ids = try model.addImported([
      ImportedList(
        name: "  Trip\tto Rome ", icon: .trips, sort: .dueDate,
        items: [
          ImportedItem(text: "Passport", checked: true, dueDate: due, shouldRemind: true),
          ImportedItem(text: "Tickets"),
        ]),
      ImportedList(name: "Empty", icon: .none),
    ])
    #expect(ids == [2, 3])
    #expect(model.lists.count == 3)
    #expect(model.checklist(id: before.lists[0].id) == before.lists[0])
    let trip = try #require(model.checklist(id: 2))
    #expect(trip.name == "Trip to Rome")
    #expect(trip.icon == .trips)
    #expect(trip.sort == .dueDate)
    #expect(trip.items.map(\.id) == [2, 3])
    #expect(trip.items.map(\.text) == ["Passport", "Tickets"])
    #expect(trip.items[0].checked && !trip.items[1].checked)
    #expect(trip.items[0].dueDate == Date(timeIntervalSince1970: 1_800_000_000))
    #expect(trip.items[0].shouldRemind && !trip.items[1].shouldRemind)
    #expect(model.checklist(id: 3)?.items == [])
    #expect(model.nextListID == 4 && model.nextItemID == 4)
    // Display order: by name.
    #expect(model.lists.map(\.name) == ["Empty", "Mine", "Trip to Rome"])
  }

  @Test("A refused item changes nothing and names its list and position")
  func refusedItemChangesNothing() throws {
    var model = try visitorWithOneList()
    let before = model
    let refusal = #expect(throws: ImportRefusal.self) {
      try model.addImported([
        ImportedList(name: "Fine", items: [ImportedItem(text: "ok")]),
        ImportedList(
          name: "Groceries",
          items: [
            ImportedItem(text: "Milk"), ImportedItem(text: String(repeating: "x", count: 1_001)),
          ]
        ),
      ])
    }
    #expect(model == before)
    #expect(refusal?.list == 2 && refusal?.item == 2)
    #expect(refusal?.reason == .textTooLong(limit: Limits.maximumTextLength))
    #expect(
      refusal?.message.hasPrefix("Item 2 of list 2 (“Groceries”) cannot be imported.") == true)
  }

  @Test(
    "Empty names, empty texts and due dates out of range are refused",
    arguments: [
      (ImportedList(name: " \n "), nil as Int?, ChecklistsError.emptyText),
      (ImportedList(name: "L", items: [ImportedItem(text: "\t")]), 1, .emptyText),
      (
        ImportedList(
          name: "L", items: [ImportedItem(text: "a", dueDate: Date(timeIntervalSince1970: -1))]),
        1, .dueDateOutOfRange
      ),
    ])
  func refusals(list: ImportedList, item: Int?, reason: ChecklistsError) throws {
    var model = try visitorWithOneList()
    let before = model
    let refusal = #expect(throws: ImportRefusal.self) { try model.addImported([list]) }
    #expect(model == before)
    #expect(refusal?.item == item)
    #expect(refusal?.reason == reason)
  }

  @Test("A list with more items than a list may hold is refused at the first item too many")
  func tooManyItems() throws {
    var model = try visitorWithOneList()
    let before = model
    let items = Array(repeating: ImportedItem(text: "a"), count: Limits.maximumItemsPerList + 1)
    let refusal = #expect(throws: ImportRefusal.self) {
      try model.addImported([ImportedList(name: "L", items: items)])
    }
    #expect(model == before)
    #expect(refusal?.item == Limits.maximumItemsPerList + 1)
    #expect(refusal?.reason == .tooManyItems(limit: Limits.maximumItemsPerList))
    try model.addImported([ImportedList(name: "L", items: Array(items.dropLast()))])
    #expect(model.lists.count == 2)
  }

  @Test("Lists past the limit are refused, counting the existing ones")
  func tooManyLists() throws {
    var model = try visitorWithOneList()
    let before = model
    let lists = (1...Limits.maximumLists).map { ImportedList(name: "List \($0)") }
    let refusal = #expect(throws: ImportRefusal.self) { try model.addImported(lists) }
    #expect(model == before)
    #expect(refusal?.list == Limits.maximumLists)
    #expect(refusal?.reason == .tooManyLists(limit: Limits.maximumLists))
    try model.addImported(Array(lists.dropLast()))
    #expect(model.lists.count == Limits.maximumLists)
  }
}
