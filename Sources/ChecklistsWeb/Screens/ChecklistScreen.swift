import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates

/// The Checklist screen of one list (`GET /lists/{list}`): its items, each
/// with a toggle, edit and delete, and the form that adds one; and those
/// actions, each answered by the screen again (`303`).
enum ChecklistScreen {
  static let template = "checklist"

  /// `GET /lists/{list}`: the list, which becomes this browser's selected one.
  static func show(_ context: ScreenContext) throws -> Response {
    let id = try context.id(.list)
    guard let list = context.model.checklist(id: id) else { throw WebError.listNotFound }
    context.model.setSelectedChecklist(id: id, preferences: context.preferences)
    if let turn = list.nextOverdue(after: context.now) { context.lifetime.ends(at: turn) }
    let csrf = context.csrfToken
    let values = pageContext(
      list: list, nextItemID: context.model.nextItemID,
      hideChecked: context.preferences.bool(forKey: PreferenceKey.hideCheckedItems),
      csrf: csrf, icons: context.icons,
      undo: UndoNotice.value(
        query: context.request.query, on: .checklist(id: id), model: context.model,
        now: context.now,
        csrf: { csrf }))
    return try context.page(template, title: list.name, values)
  }

  /// `POST /lists/{list}/items`: add an item (fields `text`, and `nonce`,
  /// the state the form was rendered in, which makes a re-sent add a no-op).
  static func addItem(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    do {
      let formState = try context.form.nonNegativeInteger("nonce")
      try context.updateModel { model in
        try model.addItem(text: context.form["text"] ?? "", toList: listID, formState: formState)
      }
    } catch let error as ChecklistsError where error.isRefusedInput {
      throw WebError.unprocessable(
        error.message, backHref: "/lists/\(listID)", backLabel: "Back to the list")
    }
    return .redirect(to: "/lists/\(listID)")
  }

  /// `POST /lists/{list}/items/{item}/toggle`: check (field `check=1`) or
  /// uncheck (`check=0`) an item; without the field, flip it.
  static func toggleItem(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let itemID = try context.id(.item)
    // The row's button sends the state it wants (`check=1` or `0`), so a
    // re-sent toggle leaves the item as asked. Without the field (a page
    // rendered by an earlier version, still open in a browser) it flips,
    // as that page meant: refusing it would break every such page.
    let wanted = try context.form.wantedCheck()
    try context.updateModel { model in
      if let wanted {
        try model.setItem(id: itemID, inList: listID, checked: wanted)
      } else {
        try model.toggleItem(id: itemID, inList: listID)
      }
    }
    return .redirect(to: "/lists/\(listID)")
  }

  /// `POST /lists/{list}/items/{item}/delete`: delete an item; the list
  /// again, offering Undo. A delete sent again is answered the same way
  /// while Recently deleted still has the item.
  static func deleteItem(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let itemID = try context.id(.item)
    let deletion = try context.updateModel { model in
      do {
        return try model.deleteItem(id: itemID, inList: listID, at: context.now)
      } catch ChecklistsError.noSuchItem {
        guard let earlier = model.deletion(ofItem: itemID, inList: listID) else {
          throw ChecklistsError.noSuchItem(itemID)
        }
        return earlier.id
      }
    }
    return .redirect(to: UndoNotice.location("/lists/\(listID)", deletion: deletion))
  }

  /// - Parameters:
  ///   - hideChecked: the `HideCheckedItems` setting: only the unchecked
  ///     items are shown, with a count of the hidden ones.
  ///   - nextItemID: the model's next item id, sent back by the add-item
  ///     form as its `nonce`: it changes exactly when an item is added, so
  ///     a re-sent add is known (`DataModel.addItem(text:toList:formState:)`),
  ///     and a page kept by `ResponseMemo` for a version of the visitor's
  ///     files carries the right one, since it derives from that version.
  ///   - undo: the `undo-notice` partial's value (`UndoNotice`), or nil.
  static func pageContext(
    list: Checklist, nextItemID: Int, hideChecked: Bool, csrf: String, icons: IconLibrary,
    undo: TemplateValue? = nil
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
    if list.uncheckedCount < list.items.count { context["hasChecked"] = true }
    if let undo { context["undo"] = undo }
    if hidden > 0 {
      context["hiddenSummary"] = .string(
        hidden == 1 ? "1 checked item hidden" : "\(hidden) checked items hidden")
    }
    return .object(TemplateObject(context))
  }
}
