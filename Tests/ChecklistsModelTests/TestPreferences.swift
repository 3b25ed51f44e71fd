import ChecklistsModel

/// An in-memory ChecklistPreferences with the registered defaults of the
/// backend (ChecklistIndex -1, FirstTime true, OpenLastList true).
final class TestPreferences: ChecklistPreferences {
  var values: [String: Any] = [:]
  let defaults: [String: Any] = [
    PreferenceKey.checklistIndex: -1, PreferenceKey.firstTime: true,
    PreferenceKey.openLastList: true, PreferenceKey.hideCheckedItems: false,
  ]

  func integer(forKey key: String) -> Int { (values[key] ?? defaults[key]) as? Int ?? 0 }
  func bool(forKey key: String) -> Bool { (values[key] ?? defaults[key]) as? Bool ?? false }
  func set(_ value: Int, forKey key: String) { values[key] = value }
  func set(_ value: Bool, forKey key: String) { values[key] = value }
}
