import ChecklistsModel
import Foundation
import TestSupport
import Testing

@Suite("The visitor's own order, reuse, due dates, undo and Recently deleted")
struct OrderAndUndoTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  /// A list "L" with items "a"… and their ids.
  func model(_ texts: [String]) throws -> (DataModel, Int, [Int]) {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let ids = try texts.map { try model.addItem(text: $0, toList: list) }
    return (model, list, ids)
  }

  func texts(_ model: DataModel, _ list: Int) -> [String] {
    model.checklist(id: list)!.items.map(\.text)
  }

  @Test("Move before and after another item; the same move twice, or next to itself, is a no-op")
  func moves() throws {
    var (model, list, ids) = try model(["a", "b", "c", "d"])
    try model.moveItem(id: ids[3], inList: list, to: .before(itemID: ids[0]))
    #expect(texts(model, list) == ["d", "a", "b", "c"])
    try model.moveItem(id: ids[3], inList: list, to: .before(itemID: ids[0]))
    #expect(texts(model, list) == ["d", "a", "b", "c"])
    try model.moveItem(id: ids[3], inList: list, to: .after(itemID: ids[1]))
    #expect(texts(model, list) == ["a", "b", "d", "c"])
    try model.moveItem(id: ids[0], inList: list, to: .after(itemID: ids[2]))
    #expect(texts(model, list) == ["b", "d", "c", "a"])
    let before = model
    try model.moveItem(id: ids[1], inList: list, to: .before(itemID: ids[1]))
    #expect(model == before)
    #expect(throws: ChecklistsError.noSuchItem(999)) {
      try model.moveItem(id: ids[1], inList: list, to: .after(itemID: 999))
    }
    #expect(model == before)
  }

  @Test("Check all and uncheck all change every item; Remove checked keeps the rest in order")
  func reuse() throws {
    var (model, list, ids) = try model(["a", "b", "c"])
    try model.toggleItem(id: ids[1], inList: list)
    try model.setAllItems(inList: list, checked: true)
    #expect(model.checklist(id: list)!.items.filter(\.checked).count == 3)
    try model.setAllItems(inList: list, checked: false)
    #expect(model.checklist(id: list)!.items.filter(\.checked).isEmpty)
    #expect(try model.removeCheckedItems(inList: list, at: now) == nil)
    try model.toggleItem(id: ids[0], inList: list)
    try model.toggleItem(id: ids[2], inList: list)
    let before = model
    let deletion = try #require(try model.removeCheckedItems(inList: list, at: now))
    #expect(texts(model, list) == ["b"])
    #expect(try model.restore(deletion: deletion) == .items(listID: list, count: 2))
    #expect(model.lists == before.lists)
    #expect(model.deletions.isEmpty)
  }

  @Test(
    "Undo of an item or a list restores ids, order, checkmarks and due dates; a second undo is a no-op"
  )
  func undo() throws {
    var (model, list, ids) = try model(["a", "b", "c"])
    try model.editItem(
      id: ids[1], inList: list, text: "b", dueDate: now.addingTimeInterval(3600), shouldRemind: true
    )
    try model.toggleItem(id: ids[1], inList: list)
    let before = model
    let deletion = try model.deleteItem(id: ids[1], inList: list, at: now)
    #expect(texts(model, list) == ["a", "c"])
    #expect(model.deletion(id: deletion)?.items.map(\.position) == [1])
    #expect(try model.restore(deletion: deletion) == .items(listID: list, count: 1))
    #expect(model.lists == before.lists)
    #expect(try model.restore(deletion: deletion) == .nothing)

    let listDeletion = try model.deleteList(id: list, at: now)
    #expect(model.lists.isEmpty)
    #expect(try model.restore(deletion: listDeletion) == .list(id: list))
    #expect(model.lists == before.lists)
    #expect(model.nextItemID == before.nextItemID && model.nextListID == before.nextListID)
  }

  @Test("Items of a list deleted since come back only after the list")
  func itemsOfADeletedList() throws {
    var (model, list, ids) = try model(["a", "b"])
    let itemDeletion = try model.deleteItem(id: ids[0], inList: list, at: now)
    let listDeletion = try model.deleteList(id: list, at: now)
    let before = model
    #expect(throws: ChecklistsError.deletedItemsListGone(listName: "L")) {
      try model.restore(deletion: itemDeletion)
    }
    #expect(model == before)
    _ = try model.restore(deletion: listDeletion)
    _ = try model.restore(deletion: itemDeletion)
    #expect(texts(model, list) == ["a", "b"])
  }

  @Test("Deletions older than 30 days are purged; at most the limit are kept")
  func purgeAndLimit() throws {
    var (model, list, ids) = try model(["a", "b", "c"])
    try model.deleteItem(id: ids[0], inList: list, at: now)
    try model.deleteItem(id: ids[1], inList: list, at: now.addingTimeInterval(86_400))
    model.purgeDeletions(at: now.addingTimeInterval(DataModel.deletionsKeptFor))
    #expect(model.deletions.count == 2)
    model.purgeDeletions(at: now.addingTimeInterval(DataModel.deletionsKeptFor + 1))
    #expect(model.deletions.map { $0.items[0].item.id } == [ids[1]])
    for index in 0..<(Limits.maximumDeletions + 5) {
      let id = try model.addItem(text: "x\(index)", toList: list)
      try model.deleteItem(id: id, inList: list, at: now)
    }
    #expect(model.deletions.count == Limits.maximumDeletions)
    #expect(model.deletions.last?.items[0].item.text == "x\(Limits.maximumDeletions + 4)")
    _ = ids[2]
  }

  @Test(
    "Due dates: sorted earliest first, undated last; checked last; dates outside 1970-9999 refused")
  func dueDates() throws {
    var (model, list, ids) = try model(["a", "b", "c", "d"])
    try model.editItem(
      id: ids[2], inList: list, text: "c", dueDate: now.addingTimeInterval(60), shouldRemind: false)
    try model.editItem(
      id: ids[3], inList: list, text: "d", dueDate: now.addingTimeInterval(30), shouldRemind: true)
    try model.setSort(.dueDate, ofList: list)
    let shown = model.checklist(id: list)!.displayedItems(checkedLast: false)
    #expect(shown.map(\.text) == ["d", "c", "a", "b"])
    try model.toggleItem(id: ids[3], inList: list)
    #expect(
      model.checklist(id: list)!.displayedItems(checkedLast: true).map(\.text)
        == ["c", "a", "b", "d"])
    #expect(model.checklist(id: list)!.items[2].isOverdue(at: now.addingTimeInterval(61)))
    #expect(!model.checklist(id: list)!.items[3].isOverdue(at: now.addingTimeInterval(61)))
    let before = model
    for date in [Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 253_402_300_800)] {
      #expect(throws: ChecklistsError.dueDateOutOfRange) {
        try model.editItem(id: ids[0], inList: list, text: "a", dueDate: date, shouldRemind: true)
      }
    }
    #expect(model == before)
  }

  @Test(
    "A version 1 file reads with no due dates, own order and no deletions, and writes version 2")
  func versionOneMigrates() throws {
    let version1 = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      <key>lists</key><array><dict>
      <key>icon</key><string>folder</string><key>id</key><integer>1</integer>
      <key>items</key><array>
      <dict><key>checked</key><true/><key>id</key><integer>1</integer><key>text</key><string>Milk</string></dict>
      <dict><key>checked</key><false/><key>id</key><integer>2</integer><key>text</key><string>Eggs</string></dict>
      </array>
      <key>name</key><string>List</string></dict></array>
      <key>nextItemID</key><integer>3</integer>
      <key>nextListID</key><integer>2</integer>
      <key>version</key><integer>1</integer>
      </dict>
      </plist>
      """
    let model = try PropertyListDecoder().decode(DataModel.self, from: Data(version1.utf8))
    let list = try #require(model.lists.first)
    #expect(list.sort == .own)
    #expect(list.items.map(\.text) == ["Milk", "Eggs"])
    #expect(list.items.filter { $0.dueDate != nil || $0.shouldRemind }.isEmpty)
    #expect(model.deletions.isEmpty && model.nextDeletionID == 1)
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let written = try encoder.encode(model)
    let top = try #require(
      try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any])
    #expect(top["version"] as? Int == 2)
    #expect(try PropertyListDecoder().decode(DataModel.self, from: written) == model)
  }

  @Test("Deletions whose ids clash with what is live are left out of a read file")
  func clashingDeletionsAreLeftOut() throws {
    var (model, list, ids) = try model(["a", "b"])
    try model.deleteItem(id: ids[0], inList: list, at: now)
    let encoder = PropertyListEncoder()
    let data = try encoder.encode(model)
    var top = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    var deleted = try #require(top["deleted"] as? [[String: Any]])
    var items = try #require(deleted[0]["items"] as? [[String: Any]])
    items[0]["id"] = ids[1]  // the live item's id
    deleted[0]["items"] = items
    top["deleted"] = deleted
    let edited = try PropertyListSerialization.data(fromPropertyList: top, format: .xml, options: 0)
    let read = try PropertyListDecoder().decode(DataModel.self, from: edited)
    #expect(read.deletions.isEmpty)
    #expect(read.lists == model.lists)
  }

  /// Any sequence of adds, moves, deletes, undos, check-alls and
  /// remove-checkeds keeps each list a permutation of the ids that should
  /// survive, and an undo right after a deletion restores the exact state.
  @Test("Order invariants and exact undo under random sequences", arguments: 0..<20)
  func randomSequences(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var model = DataModel()
    let lists = try (0..<3).map { try model.addList(name: "L\($0)", icon: .none) }
    var expected: [Int: Set<Int>] = Dictionary(uniqueKeysWithValues: lists.map { ($0, []) })
    var listGone: [Int: Set<Int>] = [:]  // a deleted list's items, by list
    var clock = now
    for step in 0..<300 {
      clock = clock.addingTimeInterval(60)
      let live = model.lists.map(\.id)
      guard let list = live.randomElement(using: &random) else {
        let deletion = try #require(model.deletions.last { $0.list != nil })
        _ = try model.restore(deletion: deletion.id)
        expected[deletion.listID] = listGone.removeValue(forKey: deletion.listID)
        continue
      }
      let items = model.checklist(id: list)!.items.map(\.id)
      let before = model
      switch Int.random(in: 0..<9, using: &random) {
      case 0, 1:
        let id = try model.addItem(text: "item \(step)", toList: list)
        expected[list]!.insert(id)
      case 2 where items.count > 1:
        let moved = items.randomElement(using: &random)!
        let target = items.randomElement(using: &random)!
        let place: DataModel.ItemPlace =
          Bool.random(using: &random) ? .before(itemID: target) : .after(itemID: target)
        try model.moveItem(id: moved, inList: list, to: place)
        let shown = model.checklist(id: list)!.items.map(\.id)
        let index = shown.firstIndex(of: moved)!
        if moved != target {
          switch place {
          case .before: #expect(shown[index + 1] == target)
          case .after: #expect(shown[index - 1] == target)
          }
        }
      case 3 where !items.isEmpty:
        let id = items.randomElement(using: &random)!
        let deletion = try model.deleteItem(id: id, inList: list, at: clock)
        if Bool.random(using: &random) {
          _ = try model.restore(deletion: deletion)
          #expect(model.lists == before.lists, "seed \(seed) step \(step)")
        } else {
          expected[list]!.remove(id)
        }
      case 4:
        try model.setAllItems(inList: list, checked: Bool.random(using: &random))
      case 5 where !items.isEmpty:
        try model.toggleItem(id: items.randomElement(using: &random)!, inList: list)
      case 6:
        if let deletion = try model.removeCheckedItems(inList: list, at: clock) {
          if Bool.random(using: &random) {
            _ = try model.restore(deletion: deletion)
            #expect(model.lists == before.lists, "seed \(seed) step \(step)")
          } else {
            for removed in model.deletion(id: deletion)!.items {
              expected[list]!.remove(removed.item.id)
            }
          }
        }
      case 7 where live.count > 1:
        let deletion = try model.deleteList(id: list, at: clock)
        listGone[list] = expected.removeValue(forKey: list)
        if Bool.random(using: &random) {
          _ = try model.restore(deletion: deletion)
          #expect(model.lists == before.lists, "seed \(seed) step \(step)")
          expected[list] = listGone.removeValue(forKey: list)
        }
      case 8:
        // An older item deletion of a live list, restored late.
        if let deletion = model.deletions.last(where: {
          $0.list == nil && model.checklist(id: $0.listID) != nil
        }) {
          _ = try model.restore(deletion: deletion.id)
          for removed in deletion.items { expected[deletion.listID]!.insert(removed.item.id) }
        }
      default:
        break
      }
      for list in model.lists {
        let ids = list.items.map(\.id)
        #expect(ids.count == Set(ids).count, "seed \(seed) step \(step): duplicate ids")
        #expect(Set(ids) == expected[list.id], "seed \(seed) step \(step): list \(list.id)")
      }
      #expect(Set(model.lists.map(\.id)) == Set(expected.keys), "seed \(seed) step \(step)")
    }
    let data = try PropertyListEncoder().encode(model)
    #expect(try PropertyListDecoder().decode(DataModel.self, from: data) == model)
  }
}
