import ChecklistsModel
import Foundation
import XCTest

@testable import Storage

final class FirstRunStoreTests: XCTestCase {
  final class Preferences: ChecklistPreferences {
    var values: [String: Any] = [PreferenceKey.firstTime: true, PreferenceKey.checklistIndex: -1]
    func integer(forKey key: String) -> Int { values[key] as? Int ?? 0 }
    func bool(forKey key: String) -> Bool { values[key] as? Bool ?? false }
    func set(_ value: Int, forKey key: String) { values[key] = value }
    func set(_ value: Bool, forKey key: String) { values[key] = value }
  }

  func testFirstChangeStoresTheFirstRunListAndCommitsIt() throws {
    let data = try makeDataDirectory(self)
    let store = makeStore(data)
    let visitor = VisitorDirectory(
      dataDirectory: data, visitorID: "0123456789abcdef0123456789abcdef")
    let preferences = Preferences()

    // A GET: shown, not stored, nothing committed.
    let shown = FirstRun.model(
      stored: try store.load(visitor), preferences: preferences, commit: false)
    XCTAssertEqual(shown.lists.map(\.name), ["List"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: visitor.path))

    // A refused first change: still pending, nothing stored.
    XCTAssertThrowsError(
      try store.update(visitor, preferences: preferences) { model in
        try model.addItem(text: "", toList: model.lists[0].id)
      })
    XCTAssertEqual(preferences.values[PreferenceKey.firstTime] as? Bool, true)
    XCTAssertNil(try store.load(visitor))

    // The first change that succeeds stores "List" with the change in it.
    let item = try store.update(visitor, preferences: preferences) { model in
      try model.addItem(text: "Milk", toList: model.lists[0].id)
    }
    XCTAssertEqual(preferences.values[PreferenceKey.firstTime] as? Bool, false)
    XCTAssertEqual(preferences.values[PreferenceKey.checklistIndex] as? Int, 0)
    let stored = try XCTUnwrap(try makeStore(data).load(visitor))
    XCTAssertEqual(stored.lists.map(\.name), ["List"])
    XCTAssertEqual(stored.lists[0].item(id: item)?.text, "Milk")

    // Deleting every list never brings "List" back.
    try store.update(visitor, preferences: preferences) { try $0.deleteList(id: $0.lists[0].id) }
    XCTAssertEqual(try makeStore(data).load(visitor)?.lists, [])
    XCTAssertEqual(
      FirstRun.model(stored: try store.load(visitor), preferences: preferences, commit: false)
        .lists, [])
  }
}
