/// The preference keys the model reads and writes.
package enum PreferenceKey {
  /// Row (on All Lists) of the open checklist, -1 for none.
  package static let checklistIndex = "ChecklistIndex"
  /// True until the visitor's first-run list has been stored.
  package static let firstTime = "FirstTime"
  /// Setting: land on the last open list.
  package static let openLastList = "OpenLastList"
  /// Setting: show only unchecked items.
  package static let hideCheckedItems = "HideCheckedItems"
  /// Setting: a checklist shows its checked items after the unchecked ones.
  package static let checkedItemsLast = "CheckedItemsLast"
  /// The visitor's time zone (an IANA name such as `Europe/Berlin`), in
  /// which due dates are entered and shown; UTC until known.
  package static let timeZone = "TimeZone"
  /// The visitor's languages, most wanted first (BCP 47 tags, as Apple's
  /// `AppleLanguages`): registered per request from the browser's
  /// `Accept-Language`, stored when chosen on Settings.
  package static let appleLanguages = "AppleLanguages"
}

/// The part of a UserDefaults-like store the model needs; the web layer
/// supplies one per request.
package protocol ChecklistPreferences: AnyObject {
  func integer(forKey key: String) -> Int
  func bool(forKey key: String) -> Bool
  func set(_ value: Int, forKey key: String)
  func set(_ value: Bool, forKey key: String)
}

/// Where `GET /` leads.
package enum Landing: Equatable, Sendable {
  case allLists
  case checklist(id: Int)
}
