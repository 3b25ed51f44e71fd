import ChecklistsModel
import HTMLTemplates

/// The Checklist screen of one list (`GET /lists/{id}`): its items, each
/// with a toggle, edit and delete, and the form that adds one.
enum ChecklistScreen {
  static let template = "checklist"

  /// - Parameters:
  ///   - hideChecked: the `HideCheckedItems` setting: only the unchecked
  ///     items are shown, with a count of the hidden ones.
  ///   - nextItemID: the model's next item id, sent back by the add-item
  ///     form as its `nonce`: it changes exactly when an item is added, so
  ///     a re-sent add is known (`DataModel.addItem(text:toList:formState:)`),
  ///     and a page kept by `PageCache` or `ResponseMemo` for a file version
  ///     carries the right one, since it derives from that version.
  static func context(
    list: Checklist, nextItemID: Int, hideChecked: Bool, csrf: String, icons: IconLibrary
  ) -> TemplateValue {
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
      "addNonce": .int(nextItemID),
      "limits": ["itemText": .int(Limits.maximumTextLength)],
    ]
    if hidden > 0 {
      context["hiddenSummary"] = .string(
        hidden == 1 ? "1 checked item hidden" : "\(hidden) checked items hidden")
    }
    return .object(TemplateObject(context))
  }
}
