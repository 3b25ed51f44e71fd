import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The screens: every `GET` (and `HEAD`). None of them writes a file; the
/// only state they change is the cookie-backed `ChecklistIndex`.
extension Application {
  func show(_ route: Route, _ request: Request, _ session: VisitorSession) throws -> Response {
    let preferences = session.preferences
    let (model, firstRun, version) = try currentModel(session)
    var token: String { csrf.token(for: session.id) }  // only the screens with forms pay for it
    switch route {
    case .landing:
      if let id = landingList(model: model, firstRun: firstRun, session: session) {
        return redirect(to: "/lists/\(id)")
      }
      return try page(
        AllListsScreen.template, title: AllListsScreen.title,
        context: AllListsScreen.context(model: model, icons: icons), request)

    case .allLists:
      model.setSelectedChecklist(id: nil, preferences: preferences)
      return try page(
        AllListsScreen.template, title: AllListsScreen.title,
        context: AllListsScreen.context(model: model, icons: icons), request)

    case .checklist(let id):
      guard let list = model.checklist(id: id) else { throw WebError.listNotFound }
      model.setSelectedChecklist(id: id, preferences: preferences)
      let hideChecked = preferences.bool(forKey: PreferenceKey.hideCheckedItems)
      let key = PageCache.Key(visitor: session.directory.key, list: id, hideChecked: hideChecked)
      if let version, let kept = pages.page(for: key, version: version) {
        return page(body: kept.body, etag: kept.etag, request)
      }
      let body = try renderer.render(
        ChecklistScreen.template, title: list.name,
        context: ChecklistScreen.context(
          list: list, nextItemID: model.nextItemID, hideChecked: hideChecked, csrf: token,
          icons: icons))
      let etag = ETag(body: body)
      if let version {
        pages.keep(PageCache.Page(version: version, body: body, etag: etag), for: key)
      }
      return page(body: body, etag: etag, request)

    case .newListForm:
      return try page(
        ListFormScreen.template, title: ListFormScreen.title(editing: nil),
        context: ListFormScreen.context(
          editing: nil, name: "", icon: .folder, error: nil, csrf: token, icons: icons), request)

    case .editListForm(let id):
      guard let list = model.checklist(id: id) else { throw WebError.listNotFound }
      return try page(
        ListFormScreen.template, title: ListFormScreen.title(editing: list),
        context: ListFormScreen.context(
          editing: list, name: list.name, icon: list.icon, error: nil, csrf: token, icons: icons),
        request)

    case .editItemForm(let listID, let itemID):
      guard let list = model.checklist(id: listID) else { throw WebError.listNotFound }
      guard let item = list.item(id: itemID) else { throw WebError.itemNotFound }
      return try page(
        ItemFormScreen.template, title: ItemFormScreen.title,
        context: ItemFormScreen.context(
          list: list, item: item, text: item.text, error: nil, csrf: token), request)

    case .settings:
      return try page(
        SettingsScreen.template, title: SettingsScreen.title,
        context: SettingsScreen.context(
          openLastList: preferences.bool(forKey: PreferenceKey.openLastList),
          hideCheckedItems: preferences.bool(forKey: PreferenceKey.hideCheckedItems),
          notice: SettingsScreen.notice(query: request.query), csrf: token), request)

    case .createList, .updateList, .deleteList, .addItem, .updateItem, .toggleItem, .deleteItem,
      .saveSettings, .resetSettings:
      preconditionFailure("\(route) is a change, handled by change(_:_:_:)")
    }
  }

  /// The landing rule (SPEC §3.3): the list to open on `/`, or nil for All
  /// Lists. A brand-new browser is shown the first-run `List` as if
  /// `ChecklistIndex` were already 0 (the first run's value; it is stored
  /// only with the first change, as a `GET` writes nothing).
  func landingList(model: DataModel, firstRun: Bool, session: VisitorSession) -> Int? {
    if firstRun && session.cookies[PreferenceKey.checklistIndex] == nil {
      guard session.preferences.bool(forKey: PreferenceKey.openLastList) else { return nil }
      return model.checklist(atRow: 0)?.id
    }
    switch model.landing(preferences: session.preferences) {
    case .checklist(let id): return id
    case .allLists: return nil
    }
  }

  /// A per-visitor page with its `ETag`, or `304` when the browser's copy
  /// is still the same.
  func page(_ template: String, title: String, context: TemplateValue, _ request: Request)
    throws -> Response
  {
    let body = try renderer.render(template, title: title, context: context)
    return page(body: body, etag: ETag(body: body), request)
  }

  /// A rendered page with its tag: `200`, or `304` with no body.
  func page(body: [UInt8], etag: ETag, _ request: Request) -> Response {
    etag.isNotModified(request) ? .notModified(etag) : .page(body, etag: etag)
  }

  /// `303 See Other`: the answer to every change (Post/Redirect/Get), and
  /// the landing rule's way into a list.
  func redirect(to location: String) -> Response {
    .redirect(to: location)
  }
}
