import ChecklistsModel
import Foundation
import Testing

/// What an edit link's deletions may push out of Recently deleted: only
/// what that list's links deleted before, never the owner's deletions or
/// another list's (SPEC §8).
@Suite("Deletions made through a link have a room of their own")
struct LinkDeletionsTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  /// An owner who deleted list `Taxes`, with `Groceries` and `Work`.
  func ownerWithTaxesDeleted() throws -> (DataModel, groceries: Int, work: Int) {
    var model = DataModel()
    let taxes = try model.addList(name: "Taxes", icon: .none)
    try model.addItem(text: "Receipts", toList: taxes)
    try model.deleteList(id: taxes, at: now)
    let groceries = try model.addList(name: "Groceries", icon: .none)
    let work = try model.addList(name: "Work", icon: .none)
    return (model, groceries, work)
  }

  @Test("110 adds and deletes through a link leave the owner's deletion; the link's last 30 stay")
  func aLinkNeverPushesOutTheOwners() throws {
    var (model, groceries, _) = try ownerWithTaxesDeleted()
    for round in 0..<110 {
      let item = try model.addItem(text: "scrap \(round)", toList: groceries)
      try model.deleteItem(id: item, inList: groceries, at: now, by: .editLink)
    }
    #expect(model.deletions.first?.listName == "Taxes")
    #expect(model.deletions.first?.list?.items.map(\.text) == ["Receipts"])
    let throughLink = model.deletions.filter { $0.isThroughLink(ofList: groceries) }
    #expect(throughLink.count == Limits.maximumLinkDeletionsPerList)
    #expect(throughLink.last?.items.first?.item.text == "scrap 109")
    #expect(throughLink.first?.items.first?.item.text == "scrap 80")
  }

  @Test("One list's link deletions never push out another's; the owner's quota is the owner's")
  func quotasAreSeparate() throws {
    var (model, groceries, work) = try ownerWithTaxesDeleted()
    let report = try model.addItem(text: "Report", toList: work)
    try model.deleteItem(id: report, inList: work, at: now, by: .editLink)
    for round in 0..<40 {
      let item = try model.addItem(text: "g\(round)", toList: groceries)
      try model.deleteItem(id: item, inList: groceries, at: now, by: .editLink)
    }
    #expect(model.deletions.contains { $0.isThroughLink(ofList: work) })
    // The owner's own deletions beyond their 100 push out the owner's
    // oldest (Taxes), and none of the links'.
    for round in 0..<Limits.maximumDeletions {
      let item = try model.addItem(text: "o\(round)", toList: groceries)
      try model.deleteItem(id: item, inList: groceries, at: now)
    }
    #expect(!model.deletions.contains { $0.listName == "Taxes" })
    #expect(model.deletions.filter { !$0.throughLink }.count == Limits.maximumDeletions)
    #expect(
      model.deletions.filter { $0.throughLink }.count == Limits.maximumLinkDeletionsPerList + 1)
  }

  @Test("A calendar app's 150 deletions leave the owner's and the links'; its last 100 stay")
  func anAppNeverPushesOutTheOwners() throws {
    var (model, groceries, _) = try ownerWithTaxesDeleted()
    let shared = try model.addItem(text: "Shared", toList: groceries)
    try model.deleteItem(id: shared, inList: groceries, at: now, by: .editLink)
    for round in 0..<150 {
      let item = try model.addItem(text: "synced \(round)", toList: groceries)
      try model.deleteItem(id: item, inList: groceries, at: now, by: .app)
    }
    let list = try model.addList(name: "From the phone", icon: .none)
    try model.deleteList(id: list, at: now, by: .app)
    #expect(model.deletions.first?.listName == "Taxes")
    #expect(model.deletions.contains { $0.isThroughLink(ofList: groceries) })
    let throughApps = model.deletions.filter(\.throughApp)
    #expect(throughApps.count == Limits.maximumAppDeletions)
    #expect(throughApps.last?.list?.name == "From the phone")
    #expect(throughApps.first?.items.first?.item.text == "synced 51")
    // And the owner's own beyond their quota push out only the owner's.
    for round in 0..<Limits.maximumDeletions {
      let item = try model.addItem(text: "o\(round)", toList: groceries)
      try model.deleteItem(id: item, inList: groceries, at: now)
    }
    #expect(model.deletions.filter(\.throughApp).count == Limits.maximumAppDeletions)
  }

  @Test("A file read back keeps every quota's deletions and the mark")
  func readBack() throws {
    var (model, groceries, _) = try ownerWithTaxesDeleted()
    for round in 0..<Limits.maximumDeletions + Limits.maximumLinkDeletionsPerList {
      let item = try model.addItem(text: "x\(round)", toList: groceries)
      try model.deleteItem(
        id: item, inList: groceries, at: now, by: [.editLink, .owner, .app][round % 3])
    }
    let data = try PropertyListEncoder().encode(model)
    let read = try PropertyListDecoder().decode(DataModel.self, from: data)
    #expect(read == model)
    #expect(read.deletions.count == model.deletions.count)
    #expect(read.deletions.first?.listName == "Taxes")
    #expect(read.deletions.map(\.deleter) == model.deletions.map(\.deleter))
  }

  @Test("The owner may forget any deletion; a link only its own list's")
  func forgetting() throws {
    var (model, groceries, work) = try ownerWithTaxesDeleted()
    let item = try model.addItem(text: "Milk", toList: groceries)
    try model.deleteItem(id: item, inList: groceries, at: now, by: .editLink)
    let forgotOthers = model.forgetOldestDeletion(among: { $0.isThroughLink(ofList: work) })
    #expect(!forgotOthers)
    let forgotOwn = model.forgetOldestDeletion(among: { $0.isThroughLink(ofList: groceries) })
    #expect(forgotOwn)
    #expect(model.deletions.map(\.listName) == ["Taxes"])
    // Purging through a link reaches only what its list's links deleted.
    let later = now.addingTimeInterval(DataModel.deletionsKeptFor + 1)
    model.purgeDeletions(at: later, among: { $0.isThroughLink(ofList: groceries) })
    #expect(model.deletions.map(\.listName) == ["Taxes"])
    model.purgeDeletions(at: later)
    #expect(model.deletions.isEmpty)
  }
}
