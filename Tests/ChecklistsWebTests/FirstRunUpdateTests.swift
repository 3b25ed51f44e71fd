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
    let update = FirstRunUpdate(preferences: preferences)

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
}
