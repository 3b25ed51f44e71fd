import FastCGI

/// One line of the route table: a method, a path pattern, and the handler
/// that answers them.
///
/// What a route is follows from its line: a `GET` route is a screen
/// (it changes no file; `HEAD` reaches it too), a `POST` route is a change
/// (its form passes the CSRF and Origin checks before the handler runs,
/// and it answers `303 See Other`).
///
/// A class, so that routing a request hands out a reference to its route
/// rather than a copy of its pattern and handler.
package final class Route: Sendable, CustomStringConvertible {
  /// Shows a screen, given the visitor's checklists as they stand.
  typealias ScreenHandler = @Sendable (ScreenContext) throws -> Response
  /// Makes a change, given the accepted form.
  typealias ChangeHandler = @Sendable (ChangeContext) throws -> Response

  enum Handler: Sendable {
    case screen(ScreenHandler)
    case change(ChangeHandler)
  }

  package let method: RouteMethod
  package let pattern: RoutePattern
  /// True for the screens a returning visitor asks for again and again
  /// (reload, back, revalidation), whose whole answer `ResponseMemo` may keep.
  package let isRevisited: Bool
  let handler: Handler

  private init(method: RouteMethod, pattern: RoutePattern, isRevisited: Bool, handler: Handler) {
    self.method = method
    self.pattern = pattern
    self.isRevisited = isRevisited
    self.handler = handler
  }

  /// A screen at `pattern`.
  static func get(
    _ pattern: RoutePattern, revisited: Bool = false, _ handler: @escaping ScreenHandler
  ) -> Route {
    Route(method: .get, pattern: pattern, isRevisited: revisited, handler: .screen(handler))
  }

  /// A change at `pattern`.
  static func post(_ pattern: RoutePattern, _ handler: @escaping ChangeHandler) -> Route {
    Route(method: .post, pattern: pattern, isRevisited: false, handler: .change(handler))
  }

  /// True for a route that changes something: reached by `POST`, its form
  /// checked against forgery.
  package var isChange: Bool { method == .post }

  /// `GET /lists/{list}`: how the route is named in logs and tests.
  package var description: String { "\(method) \(pattern)" }
}
