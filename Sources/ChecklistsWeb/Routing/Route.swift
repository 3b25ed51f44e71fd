/// One screen or form action of the product: every address of the
/// specification (§2) paired with the method that reaches it.
///
/// List and item ids are the stable positive integers the model hands out,
/// never row numbers; `Router` only produces ids in `1...999_999_999_999_999_999`.
public enum Route: Sendable, Hashable {
  /// `GET /`: the entry point, which applies the landing rule.
  case landing
  /// `GET /lists`: the All Lists screen.
  case allLists
  /// `GET /lists/new`: the form for a new list.
  case newListForm
  /// `POST /lists`: create a list (fields `name`, `icon`).
  case createList
  /// `GET /lists/{id}`: the Checklist screen of one list.
  case checklist(list: Int)
  /// `GET /lists/{id}/edit`: the form to rename a list or change its icon.
  case editListForm(list: Int)
  /// `POST /lists/{id}`: save a list's name and icon.
  case updateList(list: Int)
  /// `POST /lists/{id}/delete`: delete a list.
  case deleteList(list: Int)
  /// `POST /lists/{id}/items`: add an item (fields `text`, and `nonce`, the
  /// state the form was rendered in, which makes a re-sent add a no-op).
  case addItem(list: Int)
  /// `GET /lists/{id}/items/{item}/edit`: the form to edit an item.
  case editItemForm(list: Int, item: Int)
  /// `POST /lists/{id}/items/{item}`: save an item's text (field `text`).
  case updateItem(list: Int, item: Int)
  /// `POST /lists/{id}/items/{item}/toggle`: check (field `check=1`) or
  /// uncheck (`check=0`) an item; without the field, flip it.
  case toggleItem(list: Int, item: Int)
  /// `POST /lists/{id}/items/{item}/delete`: delete an item.
  case deleteItem(list: Int, item: Int)
  /// `GET /settings`: the visitor's settings.
  case settings
  /// `POST /settings`: save the settings.
  case saveSettings
  /// `POST /settings/reset`: reset the settings to their registered defaults.
  case resetSettings

  /// The screens a returning visitor asks for again and again (reload,
  /// back, revalidation), whose whole answer `ResponseMemo` may keep.
  public var isRevisited: Bool {
    switch self {
    case .checklist, .allLists: true
    default: false
    }
  }

  /// True for the routes reached by `POST`: each changes something and is
  /// answered by `303 See Other`, and each needs the CSRF checks.
  public var isChange: Bool {
    switch self {
    case .landing, .allLists, .newListForm, .checklist, .editListForm, .editItemForm, .settings:
      false
    case .createList, .updateList, .deleteList, .addItem, .updateItem, .toggleItem, .deleteItem,
      .saveSettings, .resetSettings:
      true
    }
  }
}
