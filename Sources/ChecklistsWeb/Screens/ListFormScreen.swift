import ChecklistsModel
import HTMLTemplates

/// The form for a new list (`GET /lists/new`) and for renaming a list or
/// changing its icon (`GET /lists/{id}/edit`); shown again, with what was
/// typed and the reason, when a submission is refused.
enum ListFormScreen {
  static let template = "list-form"

  static func title(editing list: Checklist?) -> String {
    list == nil ? "New List" : "Edit List"
  }

  static func context(
    editing list: Checklist?, name: String, icon: ChecklistIcon, error: String?, csrf: String,
    icons: IconLibrary
  ) -> TemplateValue {
    let choices: [TemplateValue] = ChecklistIcon.allCases.map { choice in
      [
        "name": .string(choice.rawValue),
        "label": .string(choice.displayName),
        "svg": .string(icons.svg(choice)),
        "checked": .bool(choice == icon),
      ]
    }
    var context: [String: TemplateValue] = [
      "name": .string(name),
      "icons": .list(choices),
      "csrf": .string(csrf),
      "limits": ["listName": .int(Limits.maximumTextLength)],
    ]
    if let list {
      context["list"] = ["id": .int(list.id), "name": .string(list.name)]
    }
    if let error { context["error"] = .string(error) }
    return .object(TemplateObject(context))
  }
}
