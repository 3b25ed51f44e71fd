import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The cap on one visitor's stored checklists (issue 11: 500 lists × 5,000
/// items made a file of tens of MB, re-encoded on every change).
@Suite struct StoredSizeTests {
  let visitorID = "0123456789abcdef0123456789abcdef"
  let temporary = TemporaryDirectory("stored-size")
  var data: String { temporary.path }

  /// Adds items of `text` in batches of `batch` (one write each), a new
  /// list every 5,000, until the store refuses; returns the items stored.
  private func fill(_ store: ChecklistStore, _ visitor: VisitorDirectory, text: String, batch: Int)
    throws -> Int
  {
    var stored = 0
    var list = 0
    // Twice what the cap holds: a store without the cap would fill for hours.
    let ceiling = 2 * Limits.maximumStoredBytes / (text.utf8.count + 100)
    while stored < ceiling {
      do {
        try store.update(visitor, initial: storedOrEmpty) { model in
          for _ in 0..<batch {
            if list == 0 || model.checklist(id: list)!.items.count == Limits.maximumItemsPerList {
              list = try model.addList(name: "List \(model.lists.count)", icon: .folder)
            }
            try model.addItem(text: text, toList: list)
          }
        }
        stored += batch
      } catch let error as ChecklistsError {
        #expect(error == .storageFull(limit: Limits.maximumStoredBytes))
        return stored
      }
    }
    Issue.record("\(stored) items of \(text.utf8.count) bytes stored without refusal")
    return stored
  }

  private func fileSize(_ visitor: VisitorDirectory) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: visitor.checklistsPath)[.size] as! Int
  }

  @Test func aChangeBeyondTheCapIsRefusedAndWritesNothing() throws {
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    let text = String(repeating: "x", count: Limits.maximumTextLength)
    let stored = try fill(store, visitor, text: text, batch: 100)
    let before = try Data(contentsOf: URL(fileURLWithPath: visitor.checklistsPath))
    #expect(before.count <= Limits.maximumStoredBytes + stored)
    #expect(before.count > Limits.maximumStoredBytes - 100 * 1_200)
    // What the cap means in items of 1,000 characters (Limits' doc comment).
    #expect((1_700...1_900).contains(stored), "\(stored) items of 1,000 characters")

    #expect(throws: ChecklistsError.storageFull(limit: Limits.maximumStoredBytes)) {
      try store.update(visitor, initial: storedOrEmpty) { model in
        for _ in 0..<100 { try model.addItem(text: text, toList: model.lists[0].id) }
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: visitor.checklistsPath)) == before)
    store.removeAllCached()
    #expect(try store.load(visitor)?.lists.first?.items.count == stored)

    // Deleting always passes, and makes room again.
    try store.update(visitor, initial: storedOrEmpty) { model in
      let list = model.lists[0]
      try model.deleteItem(id: list.items[0].id, inList: list.id, at: Date())
    }
    try store.update(visitor, initial: storedOrEmpty) { model in
      try model.addItem(text: "fits again", toList: model.lists[0].id)
    }
  }

  @Test func theCapInShortItems() throws {
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    let stored = try fill(store, visitor, text: "Buy the milk", batch: 100)
    #expect((12_000...13_500).contains(stored), "\(stored) items of 12 characters")
    // Counted as if checked: an unchecked item may add its one byte more.
    #expect(try fileSize(visitor) <= Limits.maximumStoredBytes + stored)
    #expect(try fileSize(visitor) > Limits.maximumStoredBytes - 100 * 170)
  }

  /// `<false/>` is a byte longer than `<true/>`: unchecking an item of a
  /// full visitor grows the file, and must still pass.
  @Test func uncheckingAtTheCapPasses() throws {
    var model = DataModel()
    let list = try model.addList(name: "Full", icon: .folder)
    let item = try model.addItem(text: "done", toList: list)
    try model.toggleItem(id: item, inList: list)
    let checked = model
    try model.toggleItem(id: item, inList: list)
    let limit = Limits.maximumStoredBytes
    #expect(throws: Never.self) {
      try StoredSize.check(
        encoded: limit + 1, model: model, storedBytes: Int64(limit), stored: checked)
    }
    #expect(throws: ChecklistsError.self) {
      try StoredSize.check(
        encoded: limit + 2, model: model, storedBytes: Int64(limit), stored: checked)
    }
    // A file over the cap from before it existed may still shrink.
    #expect(throws: Never.self) {
      try StoredSize.check(
        encoded: limit * 3, model: checked, storedBytes: Int64(limit * 4), stored: checked)
    }
  }

  /// What an import's preview says of the cap agrees with what the store
  /// then does with the same change.
  @Test func sizeRefusalForeseesTheStoresVerdict() throws {
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    let text = String(repeating: "y", count: Limits.maximumTextLength)
    try store.update(visitor, initial: storedOrEmpty) { model in
      let list = try model.addList(name: "Big", icon: .folder)
      for _ in 0..<1_500 { try model.addItem(text: text, toList: list) }
    }
    for (count, refused) in [(100, false), (600, true)] {
      let stored = try #require(try store.load(visitor))
      #expect(ChecklistStore.sizeRefusal(stored, replacing: stored) == nil)
      var model = stored
      try model.addImported([
        ImportedList(name: "More", items: Array(repeating: ImportedItem(text: text), count: count))
      ])
      let foreseen = ChecklistStore.sizeRefusal(model, replacing: stored)
      #expect((foreseen != nil) == refused, "\(count) items")
      let outcome = Result {
        try store.update(visitor, initial: storedOrEmpty) { current in
          try current.addImported([
            ImportedList(
              name: "More", items: Array(repeating: ImportedItem(text: text), count: count))
          ])
        }
      }
      if refused {
        #expect(foreseen == .storageFull(limit: Limits.maximumStoredBytes))
        #expect(throws: ChecklistsError.storageFull(limit: Limits.maximumStoredBytes)) {
          try outcome.get()
        }
      } else {
        #expect(throws: Never.self) { try outcome.get() }
      }
    }
  }
}

/// Issue 24: the size check counts, stops at the cap, and makes room in
/// Recently Deleted by counting each deletion once instead of encoding the
/// whole model again after each one it forgets.
@Suite struct StoredSizeCountingTests {
  /// Issue 24's import once added: 10 lists of 5,000 items of 1,000 `&`
  /// (257 MB of XML).
  static func amplified() throws -> DataModel {
    var model = DataModel()
    let item = ImportedItem(text: String(repeating: "&", count: Limits.maximumTextLength))
    try model.addImported(
      Array(
        repeating: ImportedList(
          name: "x", items: Array(repeating: item, count: Limits.maximumItemsPerList)),
        count: 10))
    return model
  }

  /// `model` less unchecked items' extra byte: what the old check counted.
  static func encodedCount(_ model: DataModel) -> Int {
    StoredSize.counted(encoded: ChecklistsXMLWriter.document(model).count, model: model)
  }

  @Test func countingStopsAtTheCap() throws {
    let model = try Self.amplified()
    let limit = Limits.maximumStoredBytes
    let tally = StoredSize.tally(model, upTo: limit)
    // One item past the cap at most (its text is 5,000 bytes of XML), not 257 MB.
    #expect(tally.isFull)
    #expect(tally.count <= limit + 50_000 + 5_200)
    #expect(StoredSize.count(model, upTo: limit) == nil)
    #expect(ChecklistStore.sizeRefusal(model, replacing: DataModel()) == .storageFull(limit: limit))
  }

  @Test func theCountIsTheWritersOutput() throws {
    var model = DataModel.firstRun()
    let list = try model.addList(name: "Trip <&> “to” Rome", icon: .trips)
    for number in 0..<30 {
      let item = try model.addItem(text: "item & \(number) <é>", toList: list)
      if number % 3 == 0 { try model.toggleItem(id: item, inList: list) }
    }
    try model.deleteItem(id: model.lists[1].items[0].id, inList: list, at: Date())
    _ = try model.deleteList(id: model.lists[0].id, at: Date())
    let exact = Self.encodedCount(model)
    #expect(StoredSize.count(model, upTo: .max) == exact)
    #expect(StoredSize.count(model, upTo: exact) == exact)
    #expect(StoredSize.count(model, upTo: exact - 1) == nil)
  }

  /// A visitor near the cap with 100 deletions of about 7 KB each, then a
  /// change that needs room: `makeRoom` forgets the same oldest deletions
  /// as forgetting one at a time and encoding again did, having counted
  /// about twice the cap instead of encoding the model 60 times.
  @Test func makingRoomCountsEachDeletionOnce() throws {
    var model = DataModel()
    let text = String(repeating: "y", count: Limits.maximumTextLength)
    let now = Date()
    for number in 0..<Limits.maximumDeletions {
      let list = try model.addList(name: "Gone \(number)", icon: .folder)
      for _ in 0..<6 { try model.addItem(text: text, toList: list) }
      _ = try model.deleteList(id: list, at: now)
    }
    let kept = try model.addList(name: "Kept", icon: .folder)
    for _ in 0..<900 { try model.addItem(text: text, toList: kept) }
    let before = model
    #expect(StoredSize.count(before, upTo: Limits.maximumStoredBytes) != nil)
    for _ in 0..<700 { try model.addItem(text: text, toList: kept) }

    var expected = model
    var encodings = 1
    while Self.encodedCount(expected) > Limits.maximumStoredBytes, expected.forgetOldestDeletion() {
      encodings += 1
    }
    #expect(encodings > 50)

    let ceiling = StoredSize.ceiling(replacing: before, storedBytes: nil)
    #expect(ceiling == Limits.maximumStoredBytes)
    let counted = try StoredSize.makeRoom(in: &model, ceiling: ceiling)
    #expect(model == expected)
    #expect(model.deletions.count == expected.deletions.count)
    #expect(counted <= 3 * Limits.maximumStoredBytes)
    #expect(StoredSize.count(model, upTo: ceiling) != nil)

    // Without enough to forget, the change is refused and the model left alone.
    var tooBig = model
    for _ in 0..<2_000 { try tooBig.addItem(text: text, toList: kept) }
    let unchanged = tooBig
    #expect(throws: ChecklistsError.storageFull(limit: Limits.maximumStoredBytes)) {
      try StoredSize.makeRoom(in: &tooBig, ceiling: ceiling)
    }
    #expect(tooBig == unchanged)
  }

  /// Only the deletions a change may forget make room (an edit link's
  /// change: those of its own list's links), the others stay.
  @Test func makingRoomForgetsOnlyWhatItMay() throws {
    var model = DataModel()
    let text = String(repeating: "w", count: Limits.maximumTextLength)
    for number in 0..<Limits.maximumDeletions {
      let list = try model.addList(name: "Gone \(number)", icon: .folder)
      for _ in 0..<6 { try model.addItem(text: text, toList: list) }
      _ = try model.deleteList(id: list, at: Date())
    }
    let kept = try model.addList(name: "Kept", icon: .folder)
    for _ in 0..<1_400 { try model.addItem(text: text, toList: kept) }
    let mayForget: (Deletion) -> Bool = { $0.id % 2 == 0 }
    var expected = model
    while Self.encodedCount(expected) > Limits.maximumStoredBytes,
      expected.forgetOldestDeletion(among: mayForget)
    {}
    #expect(expected.deletions.count < model.deletions.count)
    try StoredSize.makeRoom(in: &model, ceiling: Limits.maximumStoredBytes, forgetting: mayForget)
    #expect(model == expected)
    #expect(model.deletions.filter { !mayForget($0) }.count == 50)
  }

  /// The store does the same when it writes: the change is kept, the
  /// oldest deletions go.
  @Test func theStoreMakesRoomAsBefore() throws {
    let temporary = TemporaryDirectory("stored-size-room")
    let store = makeStore(temporary.path)
    let visitor = VisitorDirectory(
      dataDirectory: temporary.path, visitorID: "0123456789abcdef0123456789abcdef")
    let text = String(repeating: "z", count: Limits.maximumTextLength)
    try store.update(visitor, initial: storedOrEmpty) { model in
      for number in 0..<Limits.maximumDeletions {
        let list = try model.addList(name: "Gone \(number)", icon: .folder)
        for _ in 0..<6 { try model.addItem(text: text, toList: list) }
        _ = try model.deleteList(id: list, at: Date())
      }
      let kept = try model.addList(name: "Kept", icon: .folder)
      for _ in 0..<900 { try model.addItem(text: text, toList: kept) }
    }
    try store.update(visitor, initial: storedOrEmpty) { model in
      for _ in 0..<700 { try model.addItem(text: text, toList: model.lists[0].id) }
    }
    store.removeAllCached()
    let stored = try #require(try store.load(visitor))
    #expect(stored.lists[0].items.count == 1_600)
    #expect((1..<60).contains(stored.deletions.count), "\(stored.deletions.count) deletions kept")
    #expect(stored.deletions.last?.listName == "Gone 99")
    let size =
      try FileManager.default.attributesOfItem(atPath: visitor.checklistsPath)[.size] as! Int
    #expect(size <= Limits.maximumStoredBytes + 1_600)
  }
}
