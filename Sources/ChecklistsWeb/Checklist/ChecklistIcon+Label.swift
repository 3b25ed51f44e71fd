import ChecklistsModel

extension ChecklistIcon {
  /// The icon's name on the list form, for the catalogue (`displayName`
  /// is the English one, which the iOS app's files also use).
  var label: String {
    switch self {
    case .none: translatable("No Icon")
    case .appointments: translatable("Appointments")
    case .birthdays: translatable("Birthdays")
    case .chores: translatable("Chores")
    case .drinks: translatable("Drinks")
    case .folder: translatable("Folder")
    case .groceries: translatable("Groceries")
    case .inbox: translatable("Inbox")
    case .photos: translatable("Photos")
    case .trips: translatable("Trips")
    }
  }
}
