import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates

/// A shared list (`GET /s/{secret}`) and what an edit link may do to it:
/// add, edit, check and delete its items, each answered by the shared page
/// again (`303`). A read-only link gets the list with no form at all.
///
/// Every change names the link's list and nothing else: an item of another
/// list of the owner's is not found (`404`), and the owner's other lists,
/// settings, deletions and the list's name and icon are out of reach.
/// Items deleted here go to the owner's Recently Deleted, as the owner's
/// own deletions do, but with a room of their own there (marked as made
/// through a link), and every change stays within the list's budget
/// (`SharedListBudget`, `SharedContext.updateList`).
enum SharedListScreen {
  static let template = "shared-list"
  static let itemTemplate = "shared-item-form"
  static let itemTitle = ItemFormScreen.title

  /// `GET /s/{secret}`: the list, in its own sort, every item shown (the
  /// owner's display settings are theirs), due dates in the owner's zone.
  static func show(_ context: SharedScreenContext) throws -> Response {
    let list = context.list
    let zone = VisitorTimeZone.zone(named: context.input.zoneName)!
    let page = ChecklistPage(
      list: list, now: context.now, checkedLast: false, hideChecked: false,
      words: context.dateWords, zone: { zone })
    if let changesAt = page.changesAt { context.lifetime.ends(at: changesAt) }
    // The list unchecks itself then: the page kept must not outlive it.
    if let due = list.reset?.due { context.lifetime.ends(at: due) }
    let canEdit = context.access.kind.allowsChanges
    let values = pageContext(
      page, token: context.token, zoneName: context.input.zoneName,
      edit: canEdit ? (csrf: context.csrfToken, addNonce: context.input.addNonce) : nil)
    return try context.page(template, title: list.name, values)
  }

  /// `POST /s/{secret}/items`: add an item (fields `text`, and `nonce`,
  /// which makes a re-sent add a no-op, as on the owner's page).
  static func addItem(_ context: SharedChangeContext) throws -> Response {
    let listID = context.access.listID
    do {
      let formState = try context.form.nonNegativeInteger("nonce")
      try context.updateList { model in
        try model.addItem(text: context.form["text"] ?? "", toList: listID, formState: formState)
      }
    } catch let error as ChecklistsError where error.isRefusedInput {
      throw WebError.unprocessable(error, backHref: "", backLabel: "")
    }
    return .redirect(to: context.pagePath)
  }

  /// `POST /s/{secret}/items/{item}/toggle`: check (`check=1`) or uncheck
  /// (`check=0`) an item; without the field, flip it.
  static func toggleItem(_ context: SharedChangeContext) throws -> Response {
    let listID = context.access.listID
    let itemID = try context.id(.item)
    let wanted = try context.form.wantedCheck()
    let shownDue = try context.form.shownDue(query: context.request.query)
    // The owner's zone, as the page showed the due dates in.
    let zoneName = try context.currentList().zoneName
    let moment = CheckMoment(
      now: context.now, zone: VisitorTimeZone.zone(named: zoneName) ?? TimeZone(identifier: "UTC")!)
    try context.updateList { model in
      if let wanted {
        try model.setItem(
          id: itemID, inList: listID, checked: wanted, at: moment, shownDue: shownDue)
      } else {
        try model.toggleItem(id: itemID, inList: listID, at: moment)
      }
    }
    return .redirect(to: context.pagePath)
  }

  /// `POST /s/{secret}/items/{item}/delete`: delete an item (kept in the
  /// owner's Recently Deleted). A delete sent again finds it gone and is
  /// answered the same way.
  static func deleteItem(_ context: SharedChangeContext) throws -> Response {
    let listID = context.access.listID
    let itemID = try context.id(.item)
    try context.updateList { model in
      do {
        _ = try model.deleteItem(id: itemID, inList: listID, at: context.now, by: .editLink)
      } catch ChecklistsError.noSuchItem {
        guard model.deletion(ofItem: itemID, inList: listID) != nil else {
          throw ChecklistsError.noSuchItem(itemID)
        }
      }
    }
    return .redirect(to: context.pagePath)
  }

  /// `GET /s/{secret}/items/{item}/edit`: the item's form (an edit link's;
  /// a read-only link has no forms, `403`).
  static func editItem(_ context: SharedScreenContext) throws -> Response {
    guard context.access.kind.allowsChanges else { throw SharedRefusal.readOnly }
    let item = try Self.item(try context.id(.item), in: context.list)
    let zone = VisitorTimeZone.zone(named: context.input.zoneName)!
    let fields = ItemFormScreen.Fields(
      text: item.text, dueDate: item.dueDate.map { WallClockTime($0, in: zone).formValue } ?? "",
      shouldRemind: item.shouldRemind, notes: item.notes)
    let values = itemContext(
      list: context.list, item: item, fields: fields, zone: context.input.zoneName, refusal: nil,
      token: context.token, csrf: context.csrfToken)
    return try context.page(itemTemplate, title: context.catalogue.text(itemTitle), values)
  }

  /// `POST /s/{secret}/items/{item}`: save an item's text, due date,
  /// Remind me and note, read as the owner's item form reads them (the date in the
  /// zone the form was shown in); refused input comes back as typed.
  static func saveItem(_ context: SharedChangeContext) throws -> Response {
    let listID = context.access.listID
    let itemID = try context.id(.item)
    let fields = ItemFormScreen.Fields(context.form)
    let shown = try context.currentList()
    let reading = ItemFormScreen.DueDateReading(
      fields, zoneName: context.form["dueDateZone"], current: shown.zoneName,
      catalogue: context.catalogue)
    let refusal: ItemFormScreen.Refusal
    switch reading.outcome {
    case .refused(let refused):
      refusal = refused
    case .date(let dueDate):
      do {
        try context.updateList { model in
          try model.editItem(
            id: itemID, inList: listID, text: fields.text, dueDate: dueDate,
            shouldRemind: fields.shouldRemind, notes: fields.notes)
        }
        return .redirect(to: context.pagePath)
      } catch let error as ChecklistsError where error.isRefusedInput {
        refusal = ItemFormScreen.Refusal(
          field: ItemFormScreen.Refusal.field(of: error),
          message: error.message(in: context.catalogue))
      }
    }
    let item = try Self.item(itemID, in: shown.list)
    let values = itemContext(
      list: shown.list, item: item, fields: fields, zone: reading.zoneName, refusal: refusal,
      token: context.token, csrf: context.csrfToken)
    return try context.refusedForm(
      itemTemplate, title: context.catalogue.text(itemTitle), values,
      status: refusal.field == .dueDate ? .badRequest : .unprocessableContent)
  }

  /// The item `id` of the shared list; `404` when the list has none.
  private static func item(_ id: Int, in list: Checklist) throws -> ChecklistItem {
    guard let item = list.item(id: id) else { throw WebError.itemNotFound }
    return item
  }

  /// The `shared-list` template's values.
  ///
  /// - Parameters:
  ///   - token: the link's token, for the page's own addresses.
  ///   - edit: for an edit link, its CSRF token and the add form's nonce
  ///     (the list's own, `DataModel.addFormState(ofList:)`); nil for a
  ///     read-only link: no forms.
  static func pageContext(
    _ page: ChecklistPage, token: String, zoneName: String, edit: (csrf: String, addNonce: Int)?
  ) -> TemplateValue {
    let list = page.list
    let rows = ChecklistScreen.rowValues(page)
    // `list.id` starts the rows' relative addresses (item-row): the token.
    var listValues: [String: TemplateValue] = ["id": .string(token), "name": .string(list.name)]
    if list.icon != .none { listValues["glyph"] = .string(list.icon.fileName) }
    var context: [String: TemplateValue] = [
      "list": .object(TemplateObject(listValues)),
      "token": .string(token),
      "hasItems": .bool(!rows.isEmpty),
      "items": .list(rows),
      "hasDates": .bool(page.rows.contains { $0.due != nil }),
      "timeZone": .string(zoneName),
      "sortedByDueDate": .bool(list.sort == .dueDate),
    ]
    if let edit {
      context["edit"] = [
        "csrf": .string(edit.csrf), "addNonce": .int(edit.addNonce),
        "limits": ["itemText": .int(Limits.maximumTextLength)],
      ]
    }
    return .object(TemplateObject(context))
  }

  /// The `shared-item-form` template's values.
  static func itemContext(
    list: Checklist, item: ChecklistItem, fields: ItemFormScreen.Fields, zone: String,
    refusal: ItemFormScreen.Refusal?, token: String, csrf: String
  ) -> TemplateValue {
    var context = ItemFormScreen.formValues(
      item: item, fields: fields, zone: zone, refusal: refusal, csrf: csrf)
    context["list"] = ["name": .string(list.name)]
    context["token"] = .string(token)
    return .object(TemplateObject(context))
  }
}
