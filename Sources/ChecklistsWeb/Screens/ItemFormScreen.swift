import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The form to edit an item (`GET /lists/{list}/items/{item}/edit`) and its
/// save; shown again, with what was typed and the reason, when a
/// submission is refused.
enum ItemFormScreen {
  static let template = "item-form"
  static let title = "Edit Item"

  /// `GET /lists/{list}/items/{item}/edit`: the form, filled with the item's text.
  static func show(_ context: ScreenContext) throws -> Response {
    let (list, item) = try Self.item(context, in: context.model)
    let values = pageContext(
      list: list, item: item, text: item.text, error: nil, csrf: context.csrfToken)
    return try context.page(template, title: title, values)
  }

  /// `POST /lists/{list}/items/{item}`: save an item's text (field `text`).
  static func save(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let itemID = try context.id(.item)
    let text = context.form["text"] ?? ""
    do {
      try context.updateModel { model in try model.editItem(id: itemID, inList: listID, text: text)
      }
      return .redirect(to: "/lists/\(listID)")
    } catch let error as ChecklistsError where error.isRefusedInput {
      let (list, item) = try Self.item(context, in: try context.currentModel().model)
      let values = pageContext(
        list: list, item: item, text: text, error: error.message, csrf: context.csrfToken)
      return try context.refusedForm(template, title: title, values)
    }
  }

  /// The list and item the path names: `404` when either does not exist.
  private static func item<Input>(_ context: RequestContext<Input>, in model: DataModel) throws
    -> (Checklist, ChecklistItem)
  {
    guard let list = model.checklist(id: try context.id(.list)) else {
      throw WebError.listNotFound
    }
    guard let item = list.item(id: try context.id(.item)) else { throw WebError.itemNotFound }
    return (list, item)
  }

  static func pageContext(
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
