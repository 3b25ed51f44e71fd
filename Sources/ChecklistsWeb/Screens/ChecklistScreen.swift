import ChecklistsModel
import HTMLTemplates

/// The Checklist screen of one list (`GET /lists/{id}`): its items, each
/// with a toggle, edit and delete, and the form that adds one.
enum ChecklistScreen {
  static let template = "checklist"

  /// - Parameter hideChecked: the `HideCheckedItems` setting: only the
  ///   unchecked items are shown, with a count of the hidden ones.
  static func context(list: Checklist, hideChecked: Bool, csrf: String, icons: IconLibrary)
    -> TemplateValue
  {
    var rows: [TemplateValue] = []
    rows.reserveCapacity(list.items.count)
    var hidden = 0
    for item in list.items {
      if hideChecked && item.checked {
        hidden += 1
        continue
      }
      rows.append(["id": .int(item.id), "text": .string(item.text), "checked": .bool(item.checked)])
    }
    var context: [String: TemplateValue] = [
      "list": [
        "id": .int(list.id), "name": .string(list.name), "icon": icons.value(for: list.icon),
      ],
      "hasItems": .bool(!rows.isEmpty),
      "items": .list(rows),
      "csrf": .string(csrf),
      "limits": ["itemText": .int(Limits.maximumTextLength)],
    ]
    if hidden > 0 {
      context["hiddenSummary"] = .string(
        hidden == 1 ? "1 checked item hidden" : "\(hidden) checked items hidden")
    }
    return .object(TemplateObject(context))
  }
}
