import FastCGI

/// One line of the route table: a method, a path pattern, and the
/// endpoint that answers them, which names its group (the kind of caller:
/// see `Endpoint`).
///
/// What a route is follows from its line: a `GET` route is a screen
/// (it changes no file; `HEAD` reaches it too), a `POST` route is a change
/// (its form passes the CSRF and Origin checks before the handler runs,
/// and it answers `303 See Other`). A feed route is a `GET` whose address is
/// its own key (`/calendar/{secret}.ics`): it runs without the visitor
/// cookie, sets none, and answers any address it does not know exactly as
/// an unknown address is answered. A shared route (`/s/{secret}…`) is a
/// screen or a change of one shared list, reached by its link's token
/// alone in the same way (see `SharedGroup`).
///
/// A class, so that routing a request hands out a reference to its route
/// rather than a copy of its pattern and handler.
package final class Route: Sendable, CustomStringConvertible {
  /// Shows a screen, given the visitor's checklists as they stand.
  typealias ScreenHandler = @Sendable (ScreenContext) throws -> Response
  /// Makes a change, given the accepted form.
  typealias ChangeHandler = @Sendable (ChangeContext) throws -> Response
  /// Takes an uploaded file, given the body read as a form (or why it
  /// could not be), once the form is known to come from the visitor's page.
  typealias UploadHandler = @Sendable (UploadContext) throws -> Response

  package let method: RouteMethod
  package let pattern: RoutePattern
  /// True for the screens a returning visitor asks for again and again
  /// (reload, back, revalidation), whose whole answer `ResponseMemo` may keep.
  package let isRevisited: Bool
  /// The handler, held by the kind of its group.
  let endpoint: any Endpoint
  /// The largest body an upload route reads (the server's cap for its
  /// path, see `RouteTable.largerBodies`); nil for the common cap.
  package let maximumBodySize: Int?

  init(
    method: RouteMethod, pattern: RoutePattern, isRevisited: Bool = false,
    endpoint: any Endpoint, maximumBodySize: Int? = nil
  ) {
    self.method = method
    self.pattern = pattern
    self.isRevisited = isRevisited
    self.endpoint = endpoint
    self.maximumBodySize = maximumBodySize
  }

  /// A screen at `pattern`.
  static func get(
    _ pattern: RoutePattern, revisited: Bool = false, _ handler: @escaping ScreenHandler
  ) -> Route {
    Route(
      method: .get, pattern: pattern, isRevisited: revisited,
      endpoint: VisitorEndpoint.screen(handler))
  }

  /// A change at `pattern`.
  static func post(_ pattern: RoutePattern, _ handler: @escaping ChangeHandler) -> Route {
    Route(
      method: .post, pattern: pattern, isRevisited: false, endpoint: VisitorEndpoint.change(handler)
    )
  }

  /// An upload at `pattern`: a `POST` of `multipart/form-data` whose body
  /// may be up to `maximumBody` bytes long (the one address the server
  /// reads so much of). Its path is all literals, so that the server can
  /// tell it before routing.
  static func upload(
    _ pattern: RoutePattern, maximumBody: Int, _ handler: @escaping UploadHandler
  ) -> Route {
    precondition(
      pattern.parameterNames.isEmpty && !pattern.carriesSecret,
      "an upload's address is all literals: \(pattern)")
    return Route(
      method: .post, pattern: pattern, isRevisited: false,
      endpoint: VisitorEndpoint.upload(handler),
      maximumBodySize: maximumBody)
  }

  /// True for a route that changes something: reached by `POST`, its form
  /// checked against forgery.
  package var isChange: Bool { method == .post }

  /// True for a feed, answered without the visitor's session.
  package var isFeed: Bool { endpoint is FeedEndpoint }

  /// True for a shared list's screen or change, answered without the
  /// visitor's session.
  package var isShared: Bool { endpoint is SharedEndpoint }

  /// `GET /lists/{list}`: how the route is named in logs and tests.
  package var description: String { "\(method) \(pattern)" }
}
