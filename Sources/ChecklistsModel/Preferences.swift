/// The preference keys the model reads and writes.
public enum PreferenceKey {
  /// Row (on All Lists) of the open checklist, -1 for none.
  public static let checklistIndex = "ChecklistIndex"
  /// True until the visitor's first-run list has been stored.
  public static let firstTime = "FirstTime"
  /// Setting: land on the last open list.
  public static let openLastList = "OpenLastList"
  /// Setting: show only unchecked items.
  public static let hideCheckedItems = "HideCheckedItems"
}

/// The part of a UserDefaults-like store the model needs; the web layer
/// supplies one per request.
public protocol ChecklistPreferences: AnyObject {
  func integer(forKey key: String) -> Int
  func bool(forKey key: String) -> Bool
  func set(_ value: Int, forKey key: String)
  func set(_ value: Bool, forKey key: String)
}

/// Where `GET /` leads.
public enum Landing: Equatable, Sendable {
  case allLists
  case checklist(id: Int)
}
