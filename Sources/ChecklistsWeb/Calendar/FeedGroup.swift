import FastCGI
import Foundation
import Storage

/// The routes of a calendar app: `GET /calendar/{secret}.ics`, reached by
/// the secret alone. No visitor cookie is read or set and no session is
/// made; a secret that is nobody's gets the very answer of an unknown
/// address. A failure is logged by its route's pattern, never by the path
/// that carries the secret.
///
/// Its stages: the security headers (the feed's own `Cache-Control` and
/// `Referrer-Policy` win), the error page, then the handler.
final class FeedGroup: Sendable {
  let services: FeedServices
  private let errors: ErrorPages
  private let pipeline: Pipeline<FeedContext>

  init(services: FeedServices, errors: ErrorPages) {
    self.services = services
    self.errors = errors
    pipeline = Pipeline([
      HeaderStage<FeedContext>(fields: SecurityHeaders.perVisitorPage),
      ErrorStage<FeedContext> { error, context in errors.response(for: error, route: context.route)
      },
    ])
  }

  /// Answers a feed route.
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, endpoint: FeedEndpoint
  ) -> Response {
    guard let secret = match.parameters.secret else { return errors.unknownAddress(request) }
    let context = FeedContext(
      request: request, route: match.route, secret: secret, services: services, now: arrival.now)
    do {
      var isNobodys = false
      let response = try pipeline.respond(to: request, context: context) { _, context in
        guard let feed = try endpoint.handler(context) else {
          isNobodys = true
          return Response(status: .notFound)
        }
        return feed
      }
      return isNobodys ? errors.unknownAddress(request) : response
    } catch {
      // The error stage catches what the handler throws.
      return SecurityHeaders.applying(to: errors.response(for: error, route: match.route))
    }
  }
}

/// What a feed's handler is given to work with: the calendar addresses and
/// the lists they lead to.
struct FeedServices: Sendable {
  let calendars: CalendarAddresses
  let store: ChecklistStore
  /// The catalogues, for the words of the feed's descriptions.
  let translations: Translations
}

/// A feed's context: no visitor cookie, only the secret its path carries.
struct FeedContext {
  let request: Request
  let route: Route
  /// The token of the path's `{secret}` segment, as it came (never logged).
  let secret: String
  let services: FeedServices
  /// The moment the request is answered at.
  let now: Date
}

/// A feed route's handler: the answer, or nil when the secret is nobody's
/// (the page any unknown address gets).
struct FeedEndpoint: Endpoint {
  let handler: @Sendable (FeedContext) throws -> Response?

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.feed.respond(to: request, match: match, arrival: arrival, endpoint: self)
  }
}

extension Route {
  /// A feed at `pattern`, reached by its secret alone (no cookie).
  static func feed(
    _ pattern: RoutePattern, _ handler: @escaping @Sendable (FeedContext) throws -> Response?
  ) -> Route {
    precondition(pattern.carriesSecret, "a feed's address carries its secret: \(pattern)")
    return Route(method: .get, pattern: pattern, endpoint: FeedEndpoint(handler: handler))
  }
}
