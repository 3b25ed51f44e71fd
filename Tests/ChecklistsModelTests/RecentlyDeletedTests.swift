import ChecklistsModel
import Foundation
import Testing

@Suite("What Recently Deleted shows, and the deletion a delete sent twice finds")
struct RecentlyDeletedTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  @Test("Newest first, only the last 30 days, before any purge")
  func recentDeletions() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let ids = try ["a", "b", "c"].map { try model.addItem(text: $0, toList: list) }
    let old = try model.deleteItem(id: ids[0], inList: list, at: now)
    let middle = try model.deleteItem(id: ids[1], inList: list, at: now.addingTimeInterval(60))
    let newest = try model.deleteList(id: list, at: now.addingTimeInterval(120))
    let later = now.addingTimeInterval(DataModel.deletionsKeptFor)
    #expect(model.recentDeletions(at: later).map(\.id) == [newest, middle, old])
    #expect(model.recentDeletion(id: old, at: later)?.id == old)

    let past = later.addingTimeInterval(1)
    #expect(model.recentDeletions(at: past).map(\.id) == [newest, middle])
    #expect(model.recentDeletion(id: old, at: past) == nil)
    #expect(model.deletion(id: old) != nil, "still kept until a change purges it")
    #expect(model.recentDeletion(id: 99, at: now) == nil)
  }

  @Test("The deletion of one item, or of a list, while it is kept")
  func deletionsOfItemsAndLists() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    let other = try model.addList(name: "M", icon: .none)
    let ids = try ["a", "b", "c"].map { try model.addItem(text: $0, toList: list) }
    #expect(model.deletion(ofItem: ids[0], inList: list) == nil)
    let first = try model.deleteItem(id: ids[0], inList: list, at: now)
    #expect(model.deletion(ofItem: ids[0], inList: list)?.id == first)
    #expect(model.deletion(ofItem: ids[0], inList: other) == nil)
    #expect(model.deletion(ofList: list) == nil)

    // Restored and deleted again: the latest deletion answers.
    _ = try model.restore(deletion: first)
    #expect(model.deletion(ofItem: ids[0], inList: list) == nil)
    let second = try model.deleteItem(id: ids[0], inList: list, at: now)
    #expect(model.deletion(ofItem: ids[0], inList: list)?.id == second)

    // Items removed together are not the deletion of one of them.
    try model.toggleItem(id: ids[1], inList: list)
    try model.toggleItem(id: ids[2], inList: list)
    _ = try model.removeCheckedItems(inList: list, at: now)
    #expect(model.deletion(ofItem: ids[1], inList: list) == nil)

    let listDeletion = try model.deleteList(id: list, at: now)
    #expect(model.deletion(ofList: list)?.id == listDeletion)
    #expect(model.deletion(ofList: other) == nil)
  }
}
