import ChecklistsModel
import HTMLTemplates

/// The visitor's settings (`GET /settings`, SPEC §3.1).
enum SettingsScreen {
  static let template = "settings"
  static let title = "Settings"

  /// The sentence shown after a save or a reset, chosen by the query the
  /// redirect carries (`?saved`, `?reset`); nil otherwise.
  static func notice(query: String) -> String? {
    switch query {
    case "saved": "Settings saved."
    case "reset": "Settings reset to their defaults."
    default: nil
    }
  }

  static func context(openLastList: Bool, hideCheckedItems: Bool, notice: String?, csrf: String)
    -> TemplateValue
  {
    var context: [String: TemplateValue] = [
      "openLastList": .bool(openLastList),
      "hideCheckedItems": .bool(hideCheckedItems),
      "csrf": .string(csrf),
    ]
    if let notice { context["notice"] = .string(notice) }
    return .object(TemplateObject(context))
  }
}
