/// The selected-checklist preference and the landing rule (which list is open; where `/` leads).
extension DataModel {
  /// Where `GET /` leads: the stored row's list only when OpenLastList is on
  /// and `0 <= index < lists.count`; anything else (stale, negative, huge)
  /// means All Lists.
  package func landing(preferences: ChecklistPreferences) -> Landing {
    guard preferences.bool(forKey: PreferenceKey.openLastList) else { return .allLists }
    let index = indexOfSelectedChecklist(preferences: preferences)
    guard let list = checklist(atRow: index) else { return .allLists }
    return .checklist(id: list.id)
  }

  /// The stored `ChecklistIndex`, unchecked: may be out of range.
  package func indexOfSelectedChecklist(preferences: ChecklistPreferences) -> Int {
    preferences.integer(forKey: PreferenceKey.checklistIndex)
  }

  /// Stores the row of this list, or -1 for nil or a list that does not exist.
  package func setSelectedChecklist(id: Int?, preferences: ChecklistPreferences) {
    let selected = id.flatMap { self.row(ofList: $0) } ?? -1
    preferences.set(selected, forKey: PreferenceKey.checklistIndex)
  }
}

/// First run (a new visitor is shown one list, `List`) as a pure function, so that a GET can show the
/// first-run list without storing anything.
package enum FirstRun {
  /// While FirstTime is true and nothing is stored, returns
  /// `DataModel.firstRun()` and, when `commit` is true, sets ChecklistIndex
  /// to 0 and FirstTime to false. Otherwise returns `stored ?? DataModel()`
  /// (and, when `commit` is true and FirstTime is still true, clears it:
  /// stored data always wins over a first-run list).
  ///
  /// - Parameter listName: the first-run list's name, in the visitor's
  ///   language; stored as it is once the first change is made.
  package static func model(
    stored: DataModel?, preferences: ChecklistPreferences, commit: Bool,
    listName: String = DataModel.firstListName
  ) -> DataModel {
    let firstTime = preferences.bool(forKey: PreferenceKey.firstTime)
    if commit && firstTime {
      if stored == nil { preferences.set(0, forKey: PreferenceKey.checklistIndex) }
      preferences.set(false, forKey: PreferenceKey.firstTime)
    }
    if firstTime && stored == nil { return DataModel.firstRun(name: listName) }
    return stored ?? DataModel()
  }

  /// Whether showing this visitor anything would be their first run.
  package static func isPending(stored: DataModel?, preferences: ChecklistPreferences) -> Bool {
    stored == nil && preferences.bool(forKey: PreferenceKey.firstTime)
  }
}
