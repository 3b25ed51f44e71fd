import ChecklistsModel
import Foundation
import Logging
import Storage
import TestSupport
import Testing

@testable import ChecklistsWeb

/// The first run on the change path: the first-run list is stored with the
/// first change that succeeds, and only then committed to the preferences.
@Suite struct FirstRunUpdateTests {
  final class Preferences: ChecklistPreferences {
    var values: [String: Any] = [PreferenceKey.firstTime: true, PreferenceKey.checklistIndex: -1]
    func integer(forKey key: String) -> Int { values[key] as? Int ?? 0 }
    func bool(forKey key: String) -> Bool { values[key] as? Bool ?? false }
    func set(_ value: Int, forKey key: String) { values[key] = value }
    func set(_ value: Bool, forKey key: String) { values[key] = value }
  }

  let temporary = TemporaryDirectory("first-run")

  private func makeStore(_ data: String) -> ChecklistStore {
    ChecklistStore(
      configuration: .init(dataDirectory: data, durable: false),
      logger: Logger(label: "FirstRunUpdateTests"))
  }

  @Test func firstChangeStoresTheFirstRunListAndCommitsIt() throws {
    let data = temporary.path
    let store = makeStore(data)
    let visitor = VisitorDirectory(
      dataDirectory: data, visitorID: "0123456789abcdef0123456789abcdef")
    let preferences = Preferences()
    let update = FirstRunUpdate(preferences: preferences, now: Date())

    // A GET: shown, not stored, nothing committed.
    let shown = FirstRun.model(
      stored: try store.load(visitor), preferences: preferences, commit: false)
    #expect(shown.lists.map(\.name) == ["List"])
    #expect(!FileManager.default.fileExists(atPath: visitor.path))

    // A refused first change: still pending, nothing stored.
    #expect(throws: (any Error).self) {
      try update.update(visitor, in: store) { model in
        try model.addItem(text: "", toList: model.lists[0].id)
      }
    }
    #expect(preferences.values[PreferenceKey.firstTime] as? Bool == true)
    #expect(try store.load(visitor) == nil)

    // The first change that succeeds stores "List" with the change in it.
    let item = try update.update(visitor, in: store) { model in
      try model.addItem(text: "Milk", toList: model.lists[0].id)
    }
    #expect(preferences.values[PreferenceKey.firstTime] as? Bool == false)
    #expect(preferences.values[PreferenceKey.checklistIndex] as? Int == 0)
    let stored = try #require(try makeStore(data).load(visitor))
    #expect(stored.lists.map(\.name) == ["List"])
    #expect(stored.lists[0].item(id: item)?.text == "Milk")

    // Deleting every list never brings "List" back.
    try update.update(visitor, in: store) { try $0.deleteList(id: $0.lists[0].id, at: Date()) }
    #expect(try makeStore(data).load(visitor)?.lists == [])
    #expect(
      FirstRun.model(stored: try store.load(visitor), preferences: preferences, commit: false)
        .lists == [])
  }

  /// Every change goes through `FirstRunUpdate`, which purges Recently
  /// Deleted of what is older than 30 days before the change runs.
  @Test func everyChangeThroughFirstRunUpdatePurgesBeforeItRuns() throws {
    let store = makeStore(temporary.path)
    let visitor = VisitorDirectory(
      dataDirectory: temporary.path, visitorID: "00112233445566778899aabbccddeeff")
    let preferences = Preferences()
    preferences.values[PreferenceKey.firstTime] = false
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 86_400
    func update(at now: Date, _ change: (inout DataModel) throws -> Void) throws {
      try FirstRunUpdate(preferences: preferences, now: now).update(visitor, in: store, change)
    }
    var list = 0
    try update(at: start) { model in
      list = try model.addList(name: "L", icon: .none)
      try model.addItem(text: "old", toList: list)
      try model.addItem(text: "new", toList: list)
      try model.deleteItem(id: 1, inList: list, at: start)
    }
    try update(at: start + 20 * day) {
      try $0.deleteItem(id: 2, inList: list, at: start + 20 * day)
    }
    // 30 days after the first deletion it is still kept.
    try update(at: start + 30 * day) { try $0.addItem(text: "x", toList: list) }
    #expect(try store.load(visitor)?.deletions.map(\.items[0].item.text) == ["old", "new"])
    // A second later, an unrelated change drops it, and only it.
    try update(at: start + 30 * day + 1) { try $0.addItem(text: "y", toList: list) }
    #expect(try store.load(visitor)?.deletions.map(\.items[0].item.text) == ["new"])
    // A restore of a purged deletion finds nothing, though the file still held it.
    var restored: DataModel.Restored?
    try update(at: start + 51 * day) { model in restored = try model.restore(deletion: 2) }
    #expect(restored == .nothing)
    #expect(try store.load(visitor)?.deletions == [])
  }
}
