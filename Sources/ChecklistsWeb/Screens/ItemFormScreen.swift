import ChecklistsModel
import HTMLTemplates

/// The form to edit an item (`GET /lists/{id}/items/{item}/edit`); shown
/// again, with what was typed and the reason, when a submission is refused.
enum ItemFormScreen {
  static let template = "item-form"
  static let title = "Edit Item"

  static func context(
    list: Checklist, item: ChecklistItem, text: String, error: String?, csrf: String
  ) -> TemplateValue {
    var context: [String: TemplateValue] = [
      "list": ["id": .int(list.id), "name": .string(list.name)],
      "item": ["id": .int(item.id)],
      "text": .string(text),
      "csrf": .string(csrf),
      "limits": ["itemText": .int(Limits.maximumTextLength)],
    ]
    if let error { context["error"] = .string(error) }
    return .object(TemplateObject(context))
  }
}
