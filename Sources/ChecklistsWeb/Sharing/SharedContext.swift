import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Storage

/// What a shared list's handler is given: the request, the link its path's
/// token opened, the ids in the path, the group's services, and what
/// its kind of route needs (`Input`: the list a screen shows, the form a
/// change sent). There is no visitor: a shared page never reads or sets
/// the visitor cookie, and the owner's other lists and settings are out of
/// its reach (every change is confined to `access.listID`).
struct SharedContext<Input> {
  let request: Request
  /// The link: whose list, which list, read-only or edit.
  let access: ShareLinks.Access
  /// The path's token as it came, for the page's own addresses (never
  /// logged).
  let token: String
  let parameters: RouteParameters
  let services: SharedServices
  let input: Input
  /// The moment the request is answered at.
  let now: Date
  /// When the page rendered stops being right by itself (see `PageLifetime`).
  let lifetime: PageLifetime
  /// The browser's language (`Accept-Language`): every answer says
  /// `Vary: Accept-Language`, and `SharedMemo` gives a kept page only to
  /// the same header.
  let language: Language
}

/// The owner's list as a shared page shows it: nothing of their other
/// lists.
struct SharedList {
  /// The shared list.
  var list: Checklist
  /// The add form's nonce (`DataModel.addFormState(ofList:)`): the list's
  /// own, never the owner's site-wide next item id.
  var addNonce: Int
  /// The owner's time zone's name: due dates are shown and typed in it.
  var zoneName: String
}

/// A shared screen's context: the list as it stands.
typealias SharedScreenContext = SharedContext<SharedList>

/// A shared change's context: the form, once readable and from the link's
/// own page.
typealias SharedChangeContext = SharedContext<FormData>

extension SharedContext {
  /// The id the route's path carries under `name`.
  func id(_ name: PathParameter) throws -> Int { try parameters.require(name) }

  /// The catalogue of the page's language, for the phrases made in Swift.
  var catalogue: Catalogue { services.renderer.translations[language] }

  /// How the page's language writes a due date.
  var dateWords: DateWords { services.renderer.translations.dateWords(language) }

  /// The shared page's address, `/s/<token>`.
  var pagePath: String { SharedPages.path(token) }

  /// The link's CSRF token (see `CSRF.token(forShare:)`).
  var csrfToken: String { services.csrf.token(forShare: access.digest) }

  /// A page in the shared layout (no way to the owner's other screens),
  /// with its `ETag` (`ConditionalGET` answers `304` when the browser's
  /// copy is still the same).
  func page(_ template: String, title: String, _ values: TemplateValue) throws -> Response {
    let body = try services.renderer.render(
      template, title: title, context: values, layout: SharedPages.layout, language: language)
    var response = Response.page(body, etag: ETag(body: body))
    response.headerFields.append(LanguageChoice.vary)
    return response
  }

  /// A form shown again with what was typed and why it was refused.
  func refusedForm(
    _ template: String, title: String, _ values: TemplateValue,
    status: HTTPResponse.Status = .unprocessableContent
  ) throws -> Response {
    var response = Response.html(
      try services.renderer.render(
        template, title: title, context: values, layout: SharedPages.layout, language: language),
      status: status)
    response.headerFields.append(LanguageChoice.vary)
    return response
  }

  /// Changes the shared list under the owner's lock: the store's one
  /// write path, as the owner's changes (`ChecklistStore.update(_:at:…)`),
  /// so two people changing it at once both keep their change. `change`
  /// runs on the owner's model; the list must still exist (`404`
  /// otherwise: deleted meanwhile).
  ///
  /// The change stays within the list's budget (`SharedListBudget`): it
  /// purges, and forgets to make room, only what this list's links
  /// deleted, and is refused (`422`: `.sharedListFull`, or
  /// `.ownersStorageFull` when the owner's own file is full) rather than
  /// take anything else of the owner's.
  @discardableResult
  func updateList<T>(_ change: (inout DataModel) throws -> T) throws -> T {
    let budget = try self.budget()
    let listID = access.listID
    let now = self.now
    do {
      return try services.store.update(
        access.owner, at: now, forgettable: budget.mayForget,
        { model in
          guard model.checklist(id: listID) != nil else { throw WebError.pageNotFound }
          let before = model
          let result = try change(&model)
          try budget.fit(&model, changedFrom: before)
          return result
        })
    } catch ChecklistsError.storageFull(_) {
      throw ChecklistsError.ownersStorageFull
    }
  }

  /// The link's list's budget, from the owner's links as they are now.
  private func budget() throws -> SharedListBudget {
    let links = try services.shares.shares(of: access.owner)?.links ?? []
    return SharedListBudget(
      listID: access.listID,
      editLinkedLists: Set(links.lazy.filter { $0.kind.allowsChanges }.map(\.list)))
  }
}

extension SharedContext<SharedList> {
  var list: Checklist { input.list }
}

extension SharedContext<FormData> {
  var form: FormData { input }

  /// The owner's list as it stands now (for a form shown again).
  func currentList() throws -> SharedList {
    try services.sharedList(access)
  }
}
