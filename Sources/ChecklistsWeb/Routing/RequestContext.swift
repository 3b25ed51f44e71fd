import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Preferences

/// What a route's handler is given: the request, who sent it, the ids in
/// its path, the application's services, and what its kind of route needs
/// (`Input`: the checklists a screen shows, the form a change sent).
struct RequestContext<Input> {
  let request: Request
  let session: VisitorSession
  let parameters: RouteParameters
  /// The services: renderer, icons, CSRF, and the visitor's checklists
  /// through `currentModel()` and `updateModel(_:)`.
  let application: Application
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

/// A feed's context: no visitor cookie, only the secret its path carries.
struct FeedContext {
  let request: Request
  /// The token of the path's `{secret}` segment, as it came (never logged).
  let secret: String
  let application: Application
  /// The moment the request is answered at.
  let now: Date
}

extension RequestContext {
  /// The id the route's path carries under `name`.
  func id(_ name: PathParameter) throws -> Int { try parameters.require(name) }

  /// The visitor's preferences for this request.
  var preferences: VisitorDefaults { session.preferences }

  var icons: IconLibrary { application.icons }

  /// The visitor's CSRF token, for a page with a form (computed when asked,
  /// so only the pages with forms pay for it).
  var csrfToken: String { application.csrf.token(for: session.id) }

  /// The visitor's checklists as they stand (see `Application.currentModel`).
  func currentModel() throws -> CurrentModel { try application.currentModel(session) }

  /// Changes the visitor's checklists: one write (see `Application.updateModel`).
  @discardableResult
  func updateModel<T>(_ change: (inout DataModel) throws -> T) throws -> T {
    try application.updateModel(session, now: now, change)
  }

  /// A screen rendered into the layout, with its `ETag`, or `304` when the
  /// browser's copy is still the same.
  func page(_ template: String, title: String, _ values: TemplateValue) throws -> Response {
    let body = try application.renderer.render(template, title: title, context: values)
    return .page(body: body, etag: ETag(body: body), for: request)
  }

  /// A form shown again with what was typed and why it was refused: `422`
  /// for what the model refuses, `400` for a field our pages never send
  /// as it came (a date that is none).
  func refusedForm(
    _ template: String, title: String, _ values: TemplateValue,
    status: HTTPResponse.Status = .unprocessableContent
  ) throws -> Response {
    try application.renderer.response(template, title: title, context: values, status: status)
  }
}

extension RequestContext<CurrentModel> {
  var model: DataModel { input.model }
}

extension RequestContext<FormData> {
  var form: FormData { input }
}
