import FastCGI

/// One line of the route table: a method, a path pattern, and the handler
/// that answers them.
///
/// What a route is follows from its line: a `GET` route is a screen
/// (it changes no file; `HEAD` reaches it too), a `POST` route is a change
/// (its form passes the CSRF and Origin checks before the handler runs,
/// and it answers `303 See Other`). A feed route is a `GET` whose address is
/// its own key (`/calendar/{secret}.ics`): it runs without the visitor
/// cookie, sets none, and answers any address it does not know exactly as
/// an unknown address is answered. A shared route (`/s/{secret}…`) is a
/// screen or a change of one shared list, reached by its link's token
/// alone in the same way (see `Application.shared`).
///
/// A class, so that routing a request hands out a reference to its route
/// rather than a copy of its pattern and handler.
package final class Route: Sendable, CustomStringConvertible {
  /// Shows a screen, given the visitor's checklists as they stand.
  typealias ScreenHandler = @Sendable (ScreenContext) throws -> Response
  /// Makes a change, given the accepted form.
  typealias ChangeHandler = @Sendable (ChangeContext) throws -> Response
  /// Answers a feed, given the request and the secret its path carries;
  /// nil when the secret is nobody's (the page any unknown address gets).
  typealias FeedHandler = @Sendable (FeedContext) throws -> Response?
  /// Shows a shared list, given the link and the owner's list as it stands.
  typealias SharedScreenHandler = @Sendable (SharedScreenContext) throws -> Response
  /// Changes a shared list's items, given the link and the accepted form.
  typealias SharedChangeHandler = @Sendable (SharedChangeContext) throws -> Response
  /// Takes an uploaded file, given the body read as a form (or why it
  /// could not be), once the form is known to come from the visitor's page.
  typealias UploadHandler = @Sendable (UploadContext) throws -> Response

  enum Handler: Sendable {
    case screen(ScreenHandler)
    case change(ChangeHandler)
    case feed(FeedHandler)
    case sharedScreen(SharedScreenHandler)
    case sharedChange(SharedChangeHandler)
    case upload(UploadHandler)
  }

  package let method: RouteMethod
  package let pattern: RoutePattern
  /// True for the screens a returning visitor asks for again and again
  /// (reload, back, revalidation), whose whole answer `ResponseMemo` may keep.
  package let isRevisited: Bool
  let handler: Handler
  /// The largest body an upload route reads (the server's cap for its
  /// path, see `RouteTable.largerBodies`); nil for the common cap.
  package let maximumBodySize: Int?

  private init(
    method: RouteMethod, pattern: RoutePattern, isRevisited: Bool, handler: Handler,
    maximumBodySize: Int? = nil
  ) {
    self.method = method
    self.pattern = pattern
    self.isRevisited = isRevisited
    self.handler = handler
    self.maximumBodySize = maximumBodySize
  }

  /// A screen at `pattern`.
  static func get(
    _ pattern: RoutePattern, revisited: Bool = false, _ handler: @escaping ScreenHandler
  ) -> Route {
    Route(method: .get, pattern: pattern, isRevisited: revisited, handler: .screen(handler))
  }

  /// A feed at `pattern`, reached by its secret alone (no cookie).
  static func feed(_ pattern: RoutePattern, _ handler: @escaping FeedHandler) -> Route {
    precondition(pattern.carriesSecret, "a feed's address carries its secret: \(pattern)")
    return Route(method: .get, pattern: pattern, isRevisited: false, handler: .feed(handler))
  }

  /// A change at `pattern`.
  static func post(_ pattern: RoutePattern, _ handler: @escaping ChangeHandler) -> Route {
    Route(method: .post, pattern: pattern, isRevisited: false, handler: .change(handler))
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
      method: .post, pattern: pattern, isRevisited: false, handler: .upload(handler),
      maximumBodySize: maximumBody)
  }

  /// A shared list's screen at `pattern`, reached by the link's token
  /// alone (no cookie); `revisited` pages are kept whole by the shared
  /// pages' memo.
  static func sharedGet(
    _ pattern: RoutePattern, revisited: Bool = false, _ handler: @escaping SharedScreenHandler
  ) -> Route {
    precondition(pattern.carriesSecret, "a shared page's address carries its token: \(pattern)")
    return Route(
      method: .get, pattern: pattern, isRevisited: revisited, handler: .sharedScreen(handler))
  }

  /// A change of a shared list at `pattern`, reached by the link's token
  /// alone (no cookie); its form is checked against forgery too.
  static func sharedPost(_ pattern: RoutePattern, _ handler: @escaping SharedChangeHandler)
    -> Route
  {
    precondition(pattern.carriesSecret, "a shared change's address carries its token: \(pattern)")
    return Route(
      method: .post, pattern: pattern, isRevisited: false, handler: .sharedChange(handler))
  }

  /// True for a route that changes something: reached by `POST`, its form
  /// checked against forgery.
  package var isChange: Bool { method == .post }

  /// True for a feed, answered without the visitor's session.
  package var isFeed: Bool {
    if case .feed = handler { true } else { false }
  }

  /// True for a shared list's screen or change, answered without the
  /// visitor's session.
  package var isShared: Bool {
    switch handler {
    case .sharedScreen, .sharedChange: true
    default: false
    }
  }

  /// `GET /lists/{list}`: how the route is named in logs and tests.
  package var description: String { "\(method) \(pattern)" }
}
