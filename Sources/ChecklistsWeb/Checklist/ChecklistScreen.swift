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
    let preferences = context.preferences
    let zone = { VisitorTimeZone.current(preferences) }
    let page = ChecklistPage(
      list: list, now: context.now,
      checkedLast: preferences.bool(forKey: PreferenceKey.checkedItemsLast),
      hideChecked: preferences.bool(forKey: PreferenceKey.hideCheckedItems), zone: zone,
      labelled: false)
    var labeller = RowLabeller(now: context.now, words: context.dateWords, zone: zone)
    let templates = context.services.renderer.translations.templates(context.language)
    let rows = try context.services.rowFragments.rows(
      of: page, owner: context.session.directory.key.hashValue, language: context.language,
      zoneName: { VisitorTimeZone.currentIdentifier(preferences) }, labeller: &labeller,
      summarize: { reset in
        let zoneName = VisitorTimeZone.currentIdentifier(preferences)
        let label = DueDateLabel(
          zone: VisitorTimeZone.zone(named: zoneName)!, now: context.now, words: context.dateWords
        )
        let text = ResetSummary.text(
          reset, label: label, visitorZone: zoneName, catalogue: context.catalogue)
        // "Tomorrow 06:00" is "Today 06:00" after midnight.
        return (text, reset.due != nil ? label.nextChange : nil)
      },
      render: { try templates.renderEach("item-row", $0, in: $1) })
    if let changesAt = rows.changesAt { context.lifetime.ends(at: changesAt) }
    let csrf = context.csrfToken
    let values = pageContext(
      page, rows: rows.html, nextItemID: context.model.nextItemID, csrf: csrf,
      resetSummary: rows.summary,
      undo: UndoNotice.value(
        query: context.request.query, on: .checklist(id: id), model: context.model,
        now: context.now, catalogue: context.catalogue, csrf: { csrf }),
      catalogue: context.catalogue)
    return try context.page(
      template, title: list.name,
      FirstRunLink.adding(to: values, isFirstRun: context.input.isFirstRun))
  }

  /// `POST /lists/{list}/items`: add an item (fields `text`, and `nonce`,
  /// the state the form was rendered in, which makes a re-sent add a no-op).
  static func addItem(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    do {
      let formState = try context.form.nonNegativeInteger("nonce")
      VisitorTimeZone.adoptBrowserZone(from: context.form, into: context.preferences)
      try context.updateModel { model in
        try model.addItem(text: context.form["text"] ?? "", toList: listID, formState: formState)
      }
    } catch let error as ChecklistsError where error.isRefusedInput {
      throw WebError.unprocessable(
        error, backHref: "/lists/\(listID)", backLabel: translatable("Back to the list"))
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
    let shownDue = try context.form.shownDue(query: context.request.query)
    VisitorTimeZone.adoptBrowserZone(from: context.form, into: context.preferences)
    let moment = CheckMoment(now: context.now, zone: VisitorTimeZone.current(context.preferences))
    try context.updateModel { model in
      if let wanted {
        try model.setItem(
          id: itemID, inList: listID, checked: wanted, at: moment, shownDue: shownDue)
      } else {
        try model.toggleItem(id: itemID, inList: listID, at: moment)
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

  /// The names of the page's context (`checklist` and `item-row`), hashed once.
  enum Key {
    static let id = TemplateKey("id")
    static let text = TemplateKey("text")
    static let checked = TemplateKey("checked")
    static let due = TemplateKey("due")
    static let notes = TemplateKey("notes")
    static let repeats = TemplateKey("repeats")
    static let lastDone = TemplateKey("lastDone")
    static let dueQuery = TemplateKey("dueQuery")
    static let iso = TemplateKey("iso")
    static let label = TemplateKey("label")
    static let overdue = TemplateKey("overdue")
    static let list = TemplateKey("list")
    static let name = TemplateKey("name")
    static let glyph = TemplateKey("glyph")
    static let hasAnyItems = TemplateKey("hasAnyItems")
    static let hasItems = TemplateKey("hasItems")
    static let rows = TemplateKey("rows")
    static let csrf = TemplateKey("csrf")
    static let addNonce = TemplateKey("addNonce")
    static let limits = TemplateKey("limits")
    static let itemText = TemplateKey("itemText")
    static let sort = TemplateKey("sort")
    static let dueDate = TemplateKey("dueDate")
    static let offerDueDate = TemplateKey("offerDueDate")
    static let canCheckAll = TemplateKey("canCheckAll")
    static let canUncheckAll = TemplateKey("canUncheckAll")
    static let hasChecked = TemplateKey("hasChecked")
    static let undo = TemplateKey("undo")
    static let moves = TemplateKey("moves")
    static let movesGrouped = TemplateKey("movesGrouped")
    static let hiddenSummary = TemplateKey("hiddenSummary")
    static let resetSummary = TemplateKey("resetSummary")
  }

  /// The limits the page states, the same on every page.
  private static let limits: TemplateValue = .object(
    TemplateObject(fields: [(Key.itemText, .int(Limits.maximumTextLength))]))

  /// The `item-row` values of the page's rows, in the order shown: the
  /// owner's list and a shared one show the same rows.
  static func rowValues(_ page: ChecklistPage) -> [TemplateValue] {
    var rows: [TemplateValue] = []
    rows.reserveCapacity(page.rows.count)
    for row in page.rows { rows.append(.object(rowValue(row))) }
    return rows
  }

  /// One row's `item-row` values (all but `list`, which the partial finds
  /// in the page's context).
  static func rowValue(_ row: ChecklistPage.Row) -> TemplateObject {
    var fields = TemplateObject(capacity: 6)
    fields.append(Key.id, .int(row.item.id))
    fields.append(Key.text, .string(row.item.text))
    fields.append(Key.checked, .bool(row.item.checked))
    if let due = row.due {
      var values = TemplateObject(capacity: 3)
      values.append(Key.iso, .string(due.machineReadable))
      values.append(Key.label, .string(due.label))
      values.append(Key.overdue, .bool(due.isOverdue))
      fields.append(Key.due, .object(values))
    }
    if !row.item.notes.isEmpty { fields.append(Key.notes, .string(row.item.notes)) }
    if let repeats = row.repeats {
      var values = TemplateObject(capacity: 3)
      values.append(Key.label, .string(repeats.label))
      if let lastDone = repeats.lastDone { values.append(Key.lastDone, .string(lastDone)) }
      if let due = repeats.dueSeconds { values.append(Key.dueQuery, .string("?due=\(due)")) }
      fields.append(Key.repeats, .object(values))
    }
    return fields
  }

  /// The context rows rendered by themselves are rendered in: `list.id`.
  static func listContext(id: Int) -> TemplateValue {
    .object(
      TemplateObject(fields: [(Key.list, .object(TemplateObject(fields: [(Key.id, .int(id))])))]))
  }

  /// - Parameters:
  ///   - page: the list and how its rows may move.
  ///   - rows: the HTML of the rows the list shows, in the order it shows
  ///     them (`RowFragments`).
  ///   - nextItemID: the model's next item id, sent back by the add-item
  ///     form as its `nonce`: it changes exactly when an item is added, so
  ///     a re-sent add is known (`DataModel.addItem(text:toList:formState:)`),
  ///     and a page kept by `ResponseMemo` for a version of the visitor's
  ///     files carries the right one, since it derives from that version.
  ///   - undo: the `undo-notice` partial's value (`UndoNotice`), or nil.
  static func pageContext(
    _ page: ChecklistPage, rows: [TemplateValue], nextItemID: Int, csrf: String,
    resetSummary: String? = nil,
    undo: TemplateValue? = nil, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let list = page.list
    var listValues: [(TemplateKey, TemplateValue)] = [
      (Key.id, .int(list.id)), (Key.name, .string(list.name)),
    ]
    if list.icon != .none { listValues.append((Key.glyph, .string(list.icon.fileName))) }
    let sort = TemplateObject(fields: [
      (Key.dueDate, .bool(list.sort == .dueDate)),
      (Key.offerDueDate, .bool(list.sort == .own && list.items.contains { $0.dueDate != nil })),
    ])
    var context: [(TemplateKey, TemplateValue)] = [
      (Key.list, .object(TemplateObject(fields: listValues))),
      (Key.hasAnyItems, .bool(!list.items.isEmpty)),
      (Key.hasItems, .bool(!page.items.isEmpty)),
      (Key.rows, .list(rows)),
      (Key.csrf, .string(csrf)),
      (Key.addNonce, .int(nextItemID)),
      (Key.limits, limits),
      (Key.sort, .object(sort)),
      (Key.canCheckAll, .bool(list.uncheckedCount > 0)),
      (Key.canUncheckAll, .bool(list.uncheckedCount < list.items.count)),
    ]
    if list.uncheckedCount < list.items.count { context.append((Key.hasChecked, true)) }
    if let undo { context.append((Key.undo, undo)) }
    if let resetSummary { context.append((Key.resetSummary, .string(resetSummary))) }
    if let moves = page.moves {
      context.append((Key.moves, true))
      context.append((Key.movesGrouped, .bool(moves == .grouped)))
    }
    if page.hiddenCount > 0 {
      context.append(
        (
          Key.hiddenSummary,
          .string(
            catalogue.text(
              translatable(
                one: "{{count}} checked item hidden", other: "{{count}} checked items hidden"),
              count: page.hiddenCount))
        ))
    }
    return .object(TemplateObject(fields: context))
  }
}
