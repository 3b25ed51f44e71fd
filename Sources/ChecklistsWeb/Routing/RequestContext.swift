import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Preferences

/// What a visitor's handler is given: the request, who sent it, the ids in
/// its path, the group's services, and what its kind of route needs
/// (`Input`: the checklists a screen shows, the form a change sent).
struct RequestContext<Input> {
  let request: Request
  let session: VisitorSession
  let parameters: RouteParameters
  /// The services: renderer, icons, CSRF, the stores, and the visitor's
  /// checklists through `currentModel()` and `updateModel(_:)`.
  let services: VisitorServices
  let input: Input
  /// The moment the request is answered at: every screen judges "overdue"
  /// and "today" by this one clock reading.
  let now: Date
  /// When the page rendered stops being right by itself (see `PageLifetime`).
  let lifetime: PageLifetime
}

/// A screen's context: the visitor's checklists as they stand.
typealias ScreenContext = RequestContext<CurrentModel>

/// A change's context: the form, once it is known to be readable and to
/// come from the visitor's own page.
typealias ChangeContext = RequestContext<FormData>

extension RequestContext {
  /// The id the route's path carries under `name`.
  func id(_ name: PathParameter) throws -> Int { try parameters.require(name) }

  /// The visitor's preferences for this request.
  var preferences: VisitorDefaults { session.preferences }

  var icons: IconLibrary { services.icons }

  /// The language of the visitor's pages (see `LanguageChoice`).
  var language: Language { session.language.language }

  /// The catalogue of the visitor's language, for the phrases made in Swift.
  var catalogue: Catalogue { services.renderer.translations[language] }

  /// How the visitor's language writes a due date.
  var dateWords: DateWords { services.renderer.translations.dateWords(language) }

  /// The visitor's CSRF token, for a page with a form (computed when asked,
  /// so only the pages with forms pay for it).
  var csrfToken: String { services.csrf.token(for: session.id) }

  /// The visitor's checklists as they stand (see `VisitorServices.currentModel`).
  func currentModel() throws -> CurrentModel { try services.currentModel(session) }

  /// Changes the visitor's checklists: one write through the store's one write path.
  @discardableResult
  func updateModel<T>(_ change: (inout DataModel) throws -> T) throws -> T {
    try services.updateModel(session, now: now, change)
  }

  /// A screen rendered into the layout, with its `ETag` (`ConditionalGET`
  /// answers `304` when the browser's copy is still the same).
  func page(_ template: String, title: String, _ values: TemplateValue) throws -> Response {
    let body = try services.renderer.render(
      template, title: title, context: values, language: language)
    return .page(body, etag: ETag(body: body))
  }

  /// A form shown again with what was typed and why it was refused: `422`
  /// for what the model refuses, `400` for a field our pages never send
  /// as it came (a date that is none).
  func refusedForm(
    _ template: String, title: String, _ values: TemplateValue,
    status: HTTPResponse.Status = .unprocessableContent
  ) throws -> Response {
    try services.renderer.response(
      template, title: title, context: values, status: status, language: language)
  }
}

extension RequestContext<CurrentModel> {
  var model: DataModel { input.model }
}

extension RequestContext<FormData> {
  var form: FormData { input }
}
