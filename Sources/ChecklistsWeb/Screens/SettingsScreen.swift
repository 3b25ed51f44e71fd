import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The visitor's settings (`GET /settings`), their save and their reset.
enum SettingsScreen {
  static let template = "settings"
  static let title = "Settings"

  /// `GET /settings`: the settings, with the notice of a save or reset
  /// just made.
  static func show(_ context: ScreenContext) throws -> Response {
    let values = pageContext(
      openLastList: context.preferences.bool(forKey: PreferenceKey.openLastList),
      hideCheckedItems: context.preferences.bool(forKey: PreferenceKey.hideCheckedItems),
      notice: notice(query: context.request.query), csrf: context.csrfToken)
    return try pageWithCalendar(context, values)  // the calendar section: SettingsScreen+Calendar
  }

  /// `POST /settings`: save the settings. An unchecked box sends nothing,
  /// so a missing field means false.
  static func save(_ context: ChangeContext) throws -> Response {
    let preferences = context.preferences
    preferences.set(context.form.contains("OpenLastList"), forKey: PreferenceKey.openLastList)
    preferences.set(
      context.form.contains("HideCheckedItems"), forKey: PreferenceKey.hideCheckedItems)
    return .redirect(to: "/settings?saved")
  }

  /// `POST /settings/reset`: the settings back to their registered defaults.
  static func reset(_ context: ChangeContext) throws -> Response {
    context.preferences.resetToRegisteredDefaults(forKeys: RegisteredDefaults.settingKeys)
    return .redirect(to: "/settings?reset")
  }

  /// The sentence shown after a save or a reset, chosen by the query the
  /// redirect carries (`?saved`, `?reset`); nil otherwise.
  static func notice(query: String) -> String? {
    switch query {
    case "saved": "Settings saved."
    case "reset": "Settings reset to their defaults."
    default: calendarNotice(query: query)
    }
  }

  static func pageContext(
    openLastList: Bool, hideCheckedItems: Bool, notice: String?, csrf: String
  ) -> TemplateValue {
    var context: [String: TemplateValue] = [
      "openLastList": .bool(openLastList),
      "hideCheckedItems": .bool(hideCheckedItems),
      "csrf": .string(csrf),
    ]
    if let notice { context["notice"] = .string(notice) }
    return .object(TemplateObject(context))
  }
}
