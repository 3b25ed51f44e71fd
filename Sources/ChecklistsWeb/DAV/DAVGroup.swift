import FastCGI
import HTTPTypes

/// The routes of a CalDAV client (`/dav/`): a calendar app that reads and
/// writes a visitor's reminders itself. So far it only says what it
/// offers (`OPTIONS`); the client's authentication and its `PROPFIND`,
/// `REPORT`, `PUT` and `DELETE` come as stages and handlers of this group.
///
/// Its stages: the headers every answer gets (no per-visitor page here:
/// a client, not a browser, reads it).
final class DAVGroup: Sendable {
  private let pipeline = Pipeline<DAVContext>([
    HeaderStage<DAVContext>(fields: SecurityHeaders.common)
  ])

  /// Answers a CalDAV route.
  func respond(to request: Request, match: RouteTable.Match, endpoint: DAVEndpoint) -> Response {
    do {
      return try pipeline.respond(
        to: request, context: DAVContext(request: request, route: match.route)
      ) {
        _, context in try endpoint.handler(context)
      }
    } catch {
      return SecurityHeaders.applying(
        SecurityHeaders.common, to: Response(status: .internalServerError))
    }
  }
}

/// What a CalDAV handler is given: the request and its route.
struct DAVContext {
  let request: Request
  let route: Route
}

/// A CalDAV route's handler.
struct DAVEndpoint: Endpoint {
  let handler: @Sendable (DAVContext) throws -> Response

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.dav.respond(to: request, match: match, endpoint: self)
  }
}

extension Route {
  /// `OPTIONS` at `pattern`, for a CalDAV client.
  static func davOptions(
    _ pattern: RoutePattern, _ handler: @escaping @Sendable (DAVContext) throws -> Response
  )
    -> Route
  {
    Route(method: .options, pattern: pattern, endpoint: DAVEndpoint(handler: handler))
  }
}
