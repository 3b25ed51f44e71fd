import ChecklistsModel
import FastCGI

/// The Checklist screen's changes of order and of every item at once.
extension ChecklistScreen {
  /// `POST /lists/{list}/items/{item}/move`: put an item just before
  /// (field `before=ID`) or just after (`after=ID`) another item of its
  /// list, as displayed when the visitor moved it. Sent again, the same
  /// move changes nothing; moving an item next to itself (past an end) is
  /// a no-op. Answered by the list, or by the Reorder screen when the form
  /// says `from=reorder`.
  static func moveItem(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let itemID = try context.id(.item)
    let place = try context.form.itemPlace()
    let back = try context.form.moveOrigin(listID: listID, itemID: itemID)
    VisitorTimeZone.adoptBrowserZone(from: context.form, into: context.preferences)
    try context.updateModel { model in try model.moveItem(id: itemID, inList: listID, to: place) }
    return .redirect(to: back)
  }

  /// `POST /lists/{list}/sort`: show the list in the visitor's own order
  /// (`sort=own`) or by due date (`sort=dueDate`); remembered with the list.
  static func setSort(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let sort = try context.form.itemSort()
    VisitorTimeZone.adoptBrowserZone(from: context.form, into: context.preferences)
    try context.updateModel { model in try model.setSort(sort, ofList: listID) }
    return .redirect(to: "/lists/\(listID)")
  }

  /// `POST /lists/{list}/check-all`: check every item of the list: one
  /// change, one write; sent again, it changes nothing.
  static func checkAll(_ context: ChangeContext) throws -> Response {
    try setAll(context, checked: true)
  }

  /// `POST /lists/{list}/uncheck-all`: uncheck every item, to use the list
  /// again (a packing list): one change, one write.
  static func uncheckAll(_ context: ChangeContext) throws -> Response {
    try setAll(context, checked: false)
  }

  private static func setAll(_ context: ChangeContext, checked: Bool) throws -> Response {
    let listID = try context.id(.list)
    VisitorTimeZone.adoptBrowserZone(from: context.form, into: context.preferences)
    let moment = CheckMoment(now: context.now, zone: VisitorTimeZone.current(context.preferences))
    try context.updateModel { model in
      try model.setAllItems(inList: listID, checked: checked, at: moment)
    }
    return .redirect(to: "/lists/\(listID)")
  }
}

/// The fields of the order forms, from the fixed sets our pages send.
extension FormData {
  /// Where a move puts the item: exactly one of `before` and `after`, each
  /// an item id; `400` otherwise.
  func itemPlace() throws(WebError) -> DataModel.ItemPlace {
    switch (self["before"], self["after"]) {
    case (let before?, nil): return .before(itemID: try itemID(before, field: "before"))
    case (nil, let after?): return .after(itemID: try itemID(after, field: "after"))
    default:
      throw WebError.badRequest(
        translatable(
          "A move names one item to go before (before) or after (after), not both or neither."))
    }
  }

  private func itemID(_ value: String, field: String) throws(WebError) -> Int {
    guard value.utf8.count <= 18, let id = Int(value), id > 0,
      value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else {
      throw WebError.badRequest(
        translatable("The form’s {{field}} is not an item id."), [("field", field)])
    }
    return id
  }

  /// The page a move is answered with: the list, or the Reorder screen
  /// at the moved item (which the browser scrolls to, and from which Tab
  /// goes on) when the form says `from=reorder`; `400` for anything else.
  func moveOrigin(listID: Int, itemID: Int) throws(WebError) -> String {
    switch self["from"] {
    case nil: return "/lists/\(listID)"
    case "reorder": return "/lists/\(listID)/reorder#item-\(itemID)"
    default:
      throw WebError.badRequest(
        translatable("The form’s {{field}} is not a page that moves items."), [("field", "from")])
    }
  }

  /// The `sort` field: `own` or `dueDate`; `400` otherwise.
  func itemSort() throws(WebError) -> ItemSort {
    guard let value = self["sort"], let sort = ItemSort(rawValue: value) else {
      throw WebError.badRequest(
        translatable("The form’s {{field}} is neither {{own}} nor {{dueDate}}."),
        [("field", "sort"), ("own", ItemSort.own.rawValue), ("dueDate", ItemSort.dueDate.rawValue)])
    }
    return sort
  }
}
