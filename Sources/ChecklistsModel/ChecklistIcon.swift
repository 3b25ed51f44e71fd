/// The icons a list can show: the ten of the original app.
package enum ChecklistIcon: String, CaseIterable, Sendable, Codable {
  case none, appointments, birthdays, chores, drinks, folder, groceries, inbox, photos, trips

  /// The icon a new list gets, as in the original app.
  package static let newList: ChecklistIcon = .folder

  /// The name shown to the visitor, e.g. "No Icon" or "Groceries".
  package var displayName: String {
    switch self {
    case .none: "No Icon"
    case .appointments: "Appointments"
    case .birthdays: "Birthdays"
    case .chores: "Chores"
    case .drinks: "Drinks"
    case .folder: "Folder"
    case .groceries: "Groceries"
    case .inbox: "Inbox"
    case .photos: "Photos"
    case .trips: "Trips"
    }
  }

  /// The SVG file in `Public/icons`, without its extension.
  package var fileName: String {
    self == .none ? "no-icon" : rawValue
  }
}
