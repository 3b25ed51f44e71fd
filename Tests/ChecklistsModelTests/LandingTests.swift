import ChecklistsModel
import XCTest

final class LandingTests: XCTestCase {
  private func threeLists() throws -> DataModel {
    var model = DataModel()
    for name in ["A", "B", "C"] { try model.addList(name: name, icon: .none) }
    return model
  }

  func testLandingRule() throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    let expectations: [(Int, Landing)] = [
      (-1, .allLists), (0, .checklist(id: model.lists[0].id)),
      (2, .checklist(id: model.lists[2].id)), (3, .allLists), (Int.max, .allLists),
      (Int.min, .allLists), (-7, .allLists),
    ]
    for (index, landing) in expectations {
      preferences.set(index, forKey: PreferenceKey.checklistIndex)
      XCTAssertEqual(model.landing(preferences: preferences), landing, "index \(index)")
      XCTAssertEqual(model.indexOfSelectedChecklist(preferences: preferences), index)
    }
  }

  func testOpenLastListOffAlwaysLandsOnAllLists() throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    preferences.set(1, forKey: PreferenceKey.checklistIndex)
    preferences.set(false, forKey: PreferenceKey.openLastList)
    XCTAssertEqual(model.landing(preferences: preferences), .allLists)
  }

  func testEmptyModelLandsOnAllLists() {
    let preferences = TestPreferences()
    preferences.set(0, forKey: PreferenceKey.checklistIndex)
    XCTAssertEqual(DataModel().landing(preferences: preferences), .allLists)
  }

  func testSetSelectedChecklistStoresTheRow() throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    model.setSelectedChecklist(id: model.lists[2].id, preferences: preferences)
    XCTAssertEqual(preferences.integer(forKey: PreferenceKey.checklistIndex), 2)
    model.setSelectedChecklist(id: nil, preferences: preferences)
    XCTAssertEqual(preferences.integer(forKey: PreferenceKey.checklistIndex), -1)
    model.setSelectedChecklist(id: 999, preferences: preferences)
    XCTAssertEqual(preferences.integer(forKey: PreferenceKey.checklistIndex), -1)
  }

  func testFirstRunIsShownWithoutCommittingOnGet() {
    let preferences = TestPreferences()
    XCTAssertTrue(FirstRun.isPending(stored: nil, preferences: preferences))
    let shown = FirstRun.model(stored: nil, preferences: preferences, commit: false)
    XCTAssertEqual(shown.lists.map(\.name), ["List"])
    XCTAssertEqual(shown.lists.first?.items, [])
    XCTAssertTrue(preferences.values.isEmpty, "a GET sets nothing")
    XCTAssertEqual(shown, DataModel.firstRun())
  }

  func testFirstRunHappensOnce() throws {
    let preferences = TestPreferences()
    var model = FirstRun.model(stored: nil, preferences: preferences, commit: true)
    XCTAssertEqual(preferences.integer(forKey: PreferenceKey.checklistIndex), 0)
    XCTAssertFalse(preferences.bool(forKey: PreferenceKey.firstTime))
    XCTAssertEqual(model.landing(preferences: preferences), .checklist(id: model.lists[0].id))

    try model.deleteList(id: model.lists[0].id)
    XCTAssertFalse(FirstRun.isPending(stored: model, preferences: preferences))
    XCTAssertEqual(FirstRun.model(stored: model, preferences: preferences, commit: true), model)
    XCTAssertEqual(FirstRun.model(stored: nil, preferences: preferences, commit: true), DataModel())
    XCTAssertFalse(preferences.bool(forKey: PreferenceKey.firstTime))
    XCTAssertEqual(model.landing(preferences: preferences), .allLists)
  }

  func testStoredDataWinsOverFirstRun() throws {
    var stored = DataModel()
    try stored.addList(name: "Mine", icon: .none)
    let preferences = TestPreferences()  // FirstTime still true, e.g. preferences lost
    XCTAssertFalse(FirstRun.isPending(stored: stored, preferences: preferences))
    XCTAssertEqual(FirstRun.model(stored: stored, preferences: preferences, commit: true), stored)
    XCTAssertFalse(preferences.bool(forKey: PreferenceKey.firstTime))
  }
}
