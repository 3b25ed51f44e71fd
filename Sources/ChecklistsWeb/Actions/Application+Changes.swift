import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The changes: every `POST`. Each reads the form, checks that it came from
/// the visitor's own page, changes the model (one write), and answers
/// `303 See Other` to the screen it belongs to. A refused request changes
/// nothing.
extension Application {
  func change(_ route: Route, _ request: Request, _ session: VisitorSession) throws -> Response {
    let form = try acceptedForm(request, session)
    let preferences = session.preferences
    switch route {
    case .createList:
      let icon = try iconField(form)
      let name = form["name"] ?? ""
      do {
        let id = try updateModel(session) { model in try model.addList(name: name, icon: icon) }
        return redirect(to: "/lists/\(id)")
      } catch let error as ChecklistsError where error.isRefusedInput {
        return try refusedListForm(editing: nil, name: name, icon: icon, error: error, session)
      }

    case .updateList(let id):
      let icon = try iconField(form)
      let name = form["name"] ?? ""
      do {
        try updateModel(session) { model in try model.updateList(id: id, name: name, icon: icon) }
        return redirect(to: "/lists/\(id)")
      } catch let error as ChecklistsError where error.isRefusedInput {
        guard let list = try currentModel(session).model.checklist(id: id) else {
          throw WebError.listNotFound
        }
        return try refusedListForm(editing: list, name: name, icon: icon, error: error, session)
      }

    case .deleteList(let id):
      try updateModel(session) { model in try model.deleteList(id: id) }
      return redirect(to: "/lists")

    case .addItem(let listID):
      do {
        let formState = try integerField(form, "nonce")
        _ = try updateModel(session) { model in
          try model.addItem(text: form["text"] ?? "", toList: listID, formState: formState)
        }
      } catch let error as ChecklistsError where error.isRefusedInput {
        throw WebError.unprocessable(
          error.message, backHref: "/lists/\(listID)", backLabel: "Back to the list")
      }
      return redirect(to: "/lists/\(listID)")

    case .updateItem(let listID, let itemID):
      let text = form["text"] ?? ""
      do {
        _ = try updateModel(session) { model in
          try model.editItem(id: itemID, inList: listID, text: text)
        }
        return redirect(to: "/lists/\(listID)")
      } catch let error as ChecklistsError where error.isRefusedInput {
        let model = try currentModel(session).model
        guard let list = model.checklist(id: listID) else { throw WebError.listNotFound }
        guard let item = list.item(id: itemID) else { throw WebError.itemNotFound }
        return try renderer.response(
          ItemFormScreen.template, title: ItemFormScreen.title,
          context: ItemFormScreen.context(
            list: list, item: item, text: text, error: error.message,
            csrf: csrf.token(for: session.id)),
          status: .unprocessableContent)
      }

    case .toggleItem(let listID, let itemID):
      // The row's button sends the state it wants (`check=1` or `0`), so a
      // re-sent toggle leaves the item as asked. Without the field (a page
      // rendered by an earlier version, still open in a browser) it flips,
      // as that page meant: refusing it would break every such page.
      let wanted = try checkField(form)
      _ = try updateModel(session) { model in
        if let wanted {
          try model.setItem(id: itemID, inList: listID, checked: wanted)
        } else {
          try model.toggleItem(id: itemID, inList: listID)
        }
      }
      return redirect(to: "/lists/\(listID)")

    case .deleteItem(let listID, let itemID):
      try updateModel(session) { model in try model.deleteItem(id: itemID, inList: listID) }
      return redirect(to: "/lists/\(listID)")

    case .saveSettings:
      // An unchecked box sends nothing, so a missing field means false.
      preferences.set(form.contains("OpenLastList"), forKey: PreferenceKey.openLastList)
      preferences.set(form.contains("HideCheckedItems"), forKey: PreferenceKey.hideCheckedItems)
      return redirect(to: "/settings?saved")

    case .resetSettings:
      preferences.resetToRegisteredDefaults(forKeys: RegisteredDefaults.settingKeys)
      return redirect(to: "/settings?reset")

    case .landing, .allLists, .newListForm, .checklist, .editListForm, .editItemForm, .settings:
      preconditionFailure("\(route) is a screen, handled by show(_:_:_:)")
    }
  }

  /// The request's form, once it is known to be readable and to come from
  /// the visitor's own page: `413`, `415`, `400` or `403` otherwise.
  func acceptedForm(_ request: Request, _ session: VisitorSession) throws -> FormData {
    if request.bodyTooLarge { throw WebError.tooLarge }
    let form: FormData
    do {
      form = try FormDecoder.decode(request)
    } catch {
      switch error {
      case .unsupportedMediaType: throw WebError.unsupportedMediaType
      case .invalidPercentEscape:
        throw WebError.badRequest("The form contains a malformed percent escape.")
      case .invalidUTF8: throw WebError.badRequest("The form contains text that is not UTF-8.")
      case .tooManyFields(let limit):
        throw WebError.badRequest("The form has more than \(limit) fields.")
      }
    }
    let verdict = csrf.verdict(
      for: request, visitor: session.isNew ? nil : session.id, form: form)
    guard verdict.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(verdict)")
      throw WebError.forbidden
    }
    return form
  }

  /// An optional non-negative integer field (the add form's `nonce`): nil
  /// when absent, `400` when it is something our pages never send.
  func integerField(_ form: FormData, _ name: String) throws -> Int? {
    guard let value = form[name] else { return nil }
    guard let number = Int(value), number >= 0 else {
      throw WebError.badRequest("The form's \(name) is malformed.")
    }
    return number
  }

  /// The toggle's `check` field: `1` checks, `0` unchecks, absent flips;
  /// `400` otherwise.
  func checkField(_ form: FormData) throws -> Bool? {
    switch form["check"] {
    case nil: return nil
    case "1": return true
    case "0": return false
    default: throw WebError.badRequest("The form's check is neither 1 nor 0.")
    }
  }

  /// The `icon` field: Folder when absent (a new list gets Folder), `400`
  /// when it names no icon.
  func iconField(_ form: FormData) throws -> ChecklistIcon {
    guard let value = form["icon"] else { return .folder }
    guard let icon = ChecklistIcon(rawValue: value) else {
      throw WebError.badRequest("The icon “\(value.prefix(40))” does not exist.")
    }
    return icon
  }

  /// The list form again, with what was typed and why it was refused (`422`).
  func refusedListForm(
    editing list: Checklist?, name: String, icon: ChecklistIcon, error: ChecklistsError,
    _ session: VisitorSession
  ) throws -> Response {
    try renderer.response(
      ListFormScreen.template, title: ListFormScreen.title(editing: list),
      context: ListFormScreen.context(
        editing: list, name: name, icon: icon, error: error.message,
        csrf: csrf.token(for: session.id), icons: icons),
      status: .unprocessableContent)
  }
}

extension ChecklistsError {
  /// True for what the visitor typed or asked for beyond a limit; a form
  /// comes back with the reason. Unknown ids are `404` pages instead.
  var isRefusedInput: Bool {
    switch self {
    case .noSuchList, .noSuchItem: false
    default: true
    }
  }
}
