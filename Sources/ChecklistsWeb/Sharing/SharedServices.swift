import ChecklistsModel
import Preferences
import Storage

/// What a shared list's handlers are given to work with
/// (`SharedContext.services`): nothing of the owner's other lists or
/// settings is reachable from here but the time zone their list is shown in.
final class SharedServices: Sendable {
  let renderer: PageRenderer
  let csrf: CSRF
  let store: ChecklistStore
  let shares: ShareLinks
  let defaults: Defaults

  init(
    renderer: PageRenderer, csrf: CSRF, store: ChecklistStore, shares: ShareLinks,
    defaults: Defaults
  ) {
    self.renderer = renderer
    self.csrf = csrf
    self.store = store
    self.shares = shares
    self.defaults = defaults
  }

  /// The owner's list as the link shows it; `404` (the unknown address's)
  /// when nothing is stored or the list is gone (deleted: the link works
  /// again if it is restored from Recently Deleted).
  func sharedList(_ access: ShareLinks.Access) throws -> SharedList {
    guard let model = try store.load(access.owner), let list = model.checklist(id: access.listID),
      let addNonce = model.addFormState(ofList: access.listID)
    else { throw WebError.pageNotFound }
    let owner = defaults.visitor(directory: access.owner.path)
    return SharedList(
      list: list, addNonce: addNonce, zoneName: VisitorTimeZone.currentIdentifier(owner))
  }
}
