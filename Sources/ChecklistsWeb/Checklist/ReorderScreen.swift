import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The Reorder screen of a list (`GET /lists/{list}/reorder`): its items in
/// the visitor's own order, each with Move up and Move down buttons, which
/// work without JavaScript. The Checklist screen itself carries no such
/// buttons: two more per row would make its page a third larger, and
/// through nginx a list page's bytes cost throughput (see
/// `Templates/item-row.mustache`); there, with JavaScript, rows are moved
/// by dragging or with Alt+↑ and Alt+↓.
enum ReorderScreen {
  static let template = "reorder"
  static let title = translatable("Reorder {{name}}")

  static func show(_ context: ScreenContext) throws -> Response {
    guard let list = context.model.checklist(id: try context.id(.list)) else {
      throw WebError.listNotFound
    }
    let values = pageContext(
      list: list, checkedLast: context.preferences.bool(forKey: PreferenceKey.checkedItemsLast),
      csrf: context.csrfToken)
    return try context.page(
      template, title: context.catalogue.text(title, [("name", list.name)]), values)
  }

  /// Each row names its neighbours as shown, which its buttons post as
  /// `before` and `after`: a move sent twice finds the item already there.
  /// With checked items last, an item's neighbours are those of its own
  /// state (a move past the others would not show).
  static func pageContext(list: Checklist, checkedLast: Bool, csrf: String) -> TemplateValue {
    var own = list
    own.sort = .own
    let items = own.displayedItems(checkedLast: checkedLast)
    var rows: [TemplateValue] = []
    rows.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      var row: [String: TemplateValue] = [
        "id": .int(item.id), "text": .string(item.text), "checked": .bool(item.checked),
        "position": .int(index + 1),
      ]
      if index > 0, !checkedLast || items[index - 1].checked == item.checked {
        row["before"] = .int(items[index - 1].id)
      }
      if index + 1 < items.count, !checkedLast || items[index + 1].checked == item.checked {
        row["after"] = .int(items[index + 1].id)
      }
      rows.append(.object(TemplateObject(row)))
    }
    return [
      "list": ["id": .int(list.id), "name": .string(list.name)],
      "byDueDate": .bool(list.sort == .dueDate),
      "checkedLast": .bool(checkedLast),
      "hasItems": .bool(!rows.isEmpty),
      "items": .list(rows),
      "count": .int(rows.count),
      "csrf": .string(csrf),
    ]
  }
}
