import ChecklistsModel
import Preferences

/// The registration domain of the product: registered at every
/// start, held in memory only.
enum RegisteredDefaults {
  /// The settings a visitor sees on `/settings`; a reset returns exactly
  /// these to their defaults and leaves internal state (`FirstTime`) alone,
  /// and the visitor's time zone too: it says where the visitor is, not how
  /// the app behaves, and UTC would show their due dates at the wrong hours.
  /// The language is among them: a reset returns the pages to the
  /// browser's language (registered per request, see `LanguageChoice`).
  static let settingKeys = [
    PreferenceKey.openLastList, PreferenceKey.hideCheckedItems, PreferenceKey.checkedItemsLast,
    PreferenceKey.appleLanguages,
  ]

  static func register(in defaults: Defaults) {
    defaults.register(defaults: [
      PreferenceKey.checklistIndex: -1,
      PreferenceKey.firstTime: true,
      PreferenceKey.openLastList: true,
      PreferenceKey.hideCheckedItems: false,
      PreferenceKey.checkedItemsLast: false,
      PreferenceKey.timeZone: VisitorTimeZone.defaultIdentifier,
    ])
    for (key, kind) in cookieBacked { defaults.declareCookieBacked(key, as: kind) }
  }

  /// The keys that live in a cookie of their own name: each browser lands
  /// where *it* left off.
  static let cookieBacked: [String: CookieValueKind] = [PreferenceKey.checklistIndex: .integer]
}

extension VisitorDefaults: ChecklistPreferences {}
