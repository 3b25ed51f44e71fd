import ChecklistsModel
import Foundation
import Logging
import Storage
import TestSupport
import Testing

/// The one write path of every change (`ChecklistStore.update(_:at:…)`):
/// the first run stored with the first change that succeeds, and Recently
/// Deleted purged before each change, whoever sends it.
@Suite struct ChecklistStoreChangeTests {
  final class Preferences: ChecklistPreferences {
    var values: [String: Any] = [PreferenceKey.firstTime: true, PreferenceKey.checklistIndex: -1]
    func integer(forKey key: String) -> Int { values[key] as? Int ?? 0 }
    func bool(forKey key: String) -> Bool { values[key] as? Bool ?? false }
    func set(_ value: Int, forKey key: String) { values[key] = value }
    func set(_ value: Bool, forKey key: String) { values[key] = value }
  }

  let temporary = TemporaryDirectory("store-change")
  static let day: TimeInterval = 86_400
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  private func makeStore() -> ChecklistStore {
    ChecklistStore(
      configuration: .init(dataDirectory: temporary.path, durable: false),
      logger: Logger(label: "ChecklistStoreChangeTests"))
  }

  private func owner(_ id: String) -> VisitorDirectory {
    VisitorDirectory(dataDirectory: temporary.path, visitorID: id)
  }

  @Test func firstChangeStoresTheFirstRunListAndCommitsIt() throws {
    let store = makeStore()
    let visitor = owner("0123456789abcdef0123456789abcdef")
    let preferences = Preferences()

    // A GET: shown, not stored, nothing committed.
    let shown = FirstRun.model(
      stored: try store.load(visitor), preferences: preferences, commit: false)
    #expect(shown.lists.map(\.name) == ["List"])
    #expect(!FileManager.default.fileExists(atPath: visitor.path))

    // A refused first change: still pending, nothing stored.
    #expect(throws: (any Error).self) {
      try store.update(visitor, at: Date(), firstRun: preferences) { model in
        try model.addItem(text: "", toList: model.lists[0].id)
      }
    }
    #expect(preferences.values[PreferenceKey.firstTime] as? Bool == true)
    #expect(try store.load(visitor) == nil)

    // The first change that succeeds stores "List" with the change in it.
    let item = try store.update(visitor, at: Date(), firstRun: preferences) { model in
      try model.addItem(text: "Milk", toList: model.lists[0].id)
    }
    #expect(preferences.values[PreferenceKey.firstTime] as? Bool == false)
    #expect(preferences.values[PreferenceKey.checklistIndex] as? Int == 0)
    let stored = try #require(try makeStore().load(visitor))
    #expect(stored.lists.map(\.name) == ["List"])
    #expect(stored.lists[0].item(id: item)?.text == "Milk")

    // Deleting every list never brings "List" back.
    try store.update(visitor, at: Date(), firstRun: preferences) {
      try $0.deleteList(id: $0.lists[0].id, at: Date())
    }
    #expect(try makeStore().load(visitor)?.lists == [])
    #expect(
      FirstRun.model(stored: try store.load(visitor), preferences: preferences, commit: false)
        .lists == [])
  }

  /// Recently Deleted forgets what is older than 30 days before the
  /// change runs, so a restore never brings back what the screen no
  /// longer shows.
  @Test func everyChangePurgesBeforeItRuns() throws {
    let store = makeStore()
    let visitor = owner("00112233445566778899aabbccddeeff")
    let start = Self.start
    let day = Self.day
    var list = 0
    try store.update(visitor, at: start) { model in
      list = try model.addList(name: "L", icon: .none)
      try model.addItem(text: "old", toList: list)
      try model.addItem(text: "new", toList: list)
      try model.deleteItem(id: 1, inList: list, at: start)
    }
    try store.update(visitor, at: start + 20 * day) {
      try $0.deleteItem(id: 2, inList: list, at: start + 20 * day)
    }
    // 30 days after the first deletion it is still kept.
    try store.update(visitor, at: start + 30 * day) { try $0.addItem(text: "x", toList: list) }
    #expect(try store.load(visitor)?.deletions.map(\.items[0].item.text) == ["old", "new"])
    // A second later, an unrelated change drops it, and only it.
    try store.update(visitor, at: start + 30 * day + 1) {
      try $0.addItem(text: "y", toList: list)
    }
    #expect(try store.load(visitor)?.deletions.map(\.items[0].item.text) == ["new"])
    // A restore of a purged deletion finds nothing, though the file still held it.
    var restored: DataModel.Restored?
    try store.update(visitor, at: start + 51 * day) { model in
      restored = try model.restore(deletion: 2)
    }
    #expect(restored == .nothing)
    #expect(try store.load(visitor)?.deletions == [])
  }

  /// A share link's change and the owner's go through the same write path
  /// and purge alike: what the link deleted is forgotten 30 days later by
  /// either, what is younger is kept by both. A link purges only its own
  /// list's links' deletions, never the owner's.
  @Test func aLinksChangeAndAnOwnersChangePurgeAlike() throws {
    let store = makeStore()
    let start = Self.start
    let day = Self.day
    let owners = [
      owner("0000000000000000000000000000000a"), owner("0000000000000000000000000000000b"),
    ]
    var list = 0
    for directory in owners {
      try store.update(directory, at: start) { model in
        list = try model.addList(name: "Shared", icon: .none)
        for text in ["by link, old", "by owner, old", "by link, new", "kept"] {
          try model.addItem(text: text, toList: list)
        }
        try model.deleteItem(id: 1, inList: list, at: start, by: .editLink)
        try model.deleteItem(id: 2, inList: list, at: start)
      }
      try store.update(directory, at: start + 10 * day) {
        try $0.deleteItem(id: 3, inList: list, at: start + 10 * day, by: .editLink)
      }
    }
    let later = start + 31 * day
    // The owner's own change, and a change through the list's edit link.
    try store.update(owners[0], at: later) { try $0.addItem(text: "owner's", toList: list) }
    let linksOwn = { (deletion: Deletion) in deletion.isThroughLink(ofList: list) }
    try store.update(owners[1], at: later, forgettable: linksOwn) {
      try $0.addItem(text: "link's", toList: list)
    }
    let byOwner = try #require(try store.load(owners[0])).deletions.map(\.items[0].item.text)
    let byLink = try #require(try store.load(owners[1])).deletions.map(\.items[0].item.text)
    #expect(!byOwner.contains("by link, old") && !byLink.contains("by link, old"))
    #expect(byOwner.contains("by link, new") && byLink.contains("by link, new"))
    #expect(byOwner == ["by link, new"])
    #expect(byLink == ["by owner, old", "by link, new"])
  }

  /// Every stored change of a list is a revision of its change log, kept in
  /// the file: a change through the one write path and one straight through
  /// `update(_:initial:)` alike, one that changes nothing none.
  @Test func eachStoredChangeIsARevisionOfItsList() throws {
    let store = makeStore()
    let visitor = owner("00112233445566778899aabbccddeeff")
    let list = try store.update(visitor, at: Self.start) { model in
      try model.addList(name: "Tasks", icon: .none)
    }
    let item = try store.update(visitor, at: Self.start) { model in
      try model.addItem(text: "One", toList: list)
    }
    try store.update(visitor, at: Self.start) { model in
      _ = try model.toggleItem(id: item, inList: list)
    }
    try store.update(visitor, at: Self.start) { _ in }
    store.removeAllCached()
    let log = try #require(try store.load(visitor)?.checklist(id: list)?.changes)
    #expect(log.revision == 2)
    #expect(log.names(after: 0) == ["\(item).ics"])
    #expect(log.names(after: 2) == [])
  }
}
