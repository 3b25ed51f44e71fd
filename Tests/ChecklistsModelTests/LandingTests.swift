import ChecklistsModel
import Foundation
import Testing

@Suite("Where a visitor lands, and the first run")
struct LandingTests {
  private func threeLists() throws -> DataModel {
    var model = DataModel()
    for name in ["A", "B", "C"] { try model.addList(name: name, icon: .none) }
    return model
  }

  /// The stored index of the selected checklist, and the row of the three lists it lands on
  /// (nil: all lists).
  @Test(
    "The stored index lands on its list when it names a row, else on all lists",
    arguments: [
      (-1, nil), (0, 0), (2, 2), (3, nil), (Int.max, nil), (Int.min, nil), (-7, nil),
    ] as [(Int, Int?)])
  func landingRule(index: Int, row: Int?) throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    let landing: Landing = row.map { .checklist(id: model.lists[$0].id) } ?? .allLists
    preferences.set(index, forKey: PreferenceKey.checklistIndex)
    #expect(model.landing(preferences: preferences) == landing)
    #expect(model.indexOfSelectedChecklist(preferences: preferences) == index)
  }

  @Test("With Open Last List off a visitor always lands on all lists")
  func openLastListOffAlwaysLandsOnAllLists() throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    preferences.set(1, forKey: PreferenceKey.checklistIndex)
    preferences.set(false, forKey: PreferenceKey.openLastList)
    #expect(model.landing(preferences: preferences) == .allLists)
  }

  @Test("A model without lists lands on all lists")
  func emptyModelLandsOnAllLists() {
    let preferences = TestPreferences()
    preferences.set(0, forKey: PreferenceKey.checklistIndex)
    #expect(DataModel().landing(preferences: preferences) == .allLists)
  }

  @Test("Selecting a checklist stores its row, or -1 for none or an unknown list")
  func setSelectedChecklistStoresTheRow() throws {
    let model = try threeLists()
    let preferences = TestPreferences()
    model.setSelectedChecklist(id: model.lists[2].id, preferences: preferences)
    #expect(preferences.integer(forKey: PreferenceKey.checklistIndex) == 2)
    model.setSelectedChecklist(id: nil, preferences: preferences)
    #expect(preferences.integer(forKey: PreferenceKey.checklistIndex) == -1)
    model.setSelectedChecklist(id: 999, preferences: preferences)
    #expect(preferences.integer(forKey: PreferenceKey.checklistIndex) == -1)
  }

  @Test("The first run is shown on a GET without committing anything")
  func firstRunIsShownWithoutCommittingOnGet() {
    let preferences = TestPreferences()
    #expect(FirstRun.isPending(stored: nil, preferences: preferences))
    let shown = FirstRun.model(stored: nil, preferences: preferences, commit: false)
    #expect(shown.lists.map(\.name) == ["List"])
    #expect(shown.lists.first?.items == [])
    #expect(preferences.values.isEmpty, "a GET sets nothing")
    #expect(shown == DataModel.firstRun())
  }

  @Test("The first run happens once")
  func firstRunHappensOnce() throws {
    let preferences = TestPreferences()
    var model = FirstRun.model(stored: nil, preferences: preferences, commit: true)
    #expect(preferences.integer(forKey: PreferenceKey.checklistIndex) == 0)
    #expect(!preferences.bool(forKey: PreferenceKey.firstTime))
    #expect(model.landing(preferences: preferences) == .checklist(id: model.lists[0].id))

    try model.deleteList(id: model.lists[0].id, at: Date())
    #expect(!FirstRun.isPending(stored: model, preferences: preferences))
    #expect(FirstRun.model(stored: model, preferences: preferences, commit: true) == model)
    #expect(FirstRun.model(stored: nil, preferences: preferences, commit: true) == DataModel())
    #expect(!preferences.bool(forKey: PreferenceKey.firstTime))
    #expect(model.landing(preferences: preferences) == .allLists)
  }

  @Test("Stored data wins over the first run")
  func storedDataWinsOverFirstRun() throws {
    var stored = DataModel()
    try stored.addList(name: "Mine", icon: .none)
    let preferences = TestPreferences()  // FirstTime still true, e.g. preferences lost
    #expect(!FirstRun.isPending(stored: stored, preferences: preferences))
    #expect(FirstRun.model(stored: stored, preferences: preferences, commit: true) == stored)
    #expect(!preferences.bool(forKey: PreferenceKey.firstTime))
  }
}
