import FastCGI
import Foundation
import HTTPTypes
import Storage

/// The routes of a CalDAV client (`/dav/`): a calendar app that reads and
/// writes an owner's lists itself, signed in with an app password made on
/// the Devices screen (`DevicesScreen+Apps`).
///
/// Its stages: the headers every answer gets (no per-visitor page here: a
/// client, not a browser, reads it), then `BasicAuthentication` for every
/// route but `OPTIONS`, which says only what the server offers. No cookie
/// is read or set: an app's password reaches the owner's lists through
/// these routes and nothing else.
final class DAVGroup: Sendable {
  let services: DAVServices
  private let pipeline: Pipeline<DAVContext>

  init(services: DAVServices) {
    self.services = services
    pipeline = Pipeline([
      HeaderStage<DAVContext>(fields: SecurityHeaders.common),
      BasicAuthentication(),
    ])
  }

  /// Answers a CalDAV route.
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, endpoint: DAVEndpoint
  ) -> Response {
    let context = DAVContext(
      request: request, route: match.route, services: services, now: arrival.now,
      signsIn: endpoint.signsIn)
    do {
      return try pipeline.respond(to: request, context: context) { _, context in
        try endpoint.handler(context)
      }
    } catch {
      return SecurityHeaders.applying(
        SecurityHeaders.common, to: DAVResponse.plain(.internalServerError, "internal error"))
    }
  }
}

/// What the DAV group's handlers use.
struct DAVServices: Sendable {
  let devices: DeviceStore
  let store: ChecklistStore
  /// Wrong passwords per client address (see `BasicAuthentication`).
  let attempts: AttemptLimiter

  init(devices: DeviceStore, store: ChecklistStore) {
    self.devices = devices
    self.store = store
    attempts = AttemptLimiter(
      limit: BasicAuthentication.attemptLimit, window: BasicAuthentication.attemptWindow)
  }
}

/// What a CalDAV handler is given: the request, its route, the group's
/// services, and the account the app signed in as (nil only on a route that
/// takes none).
struct DAVContext {
  let request: Request
  let route: Route
  let services: DAVServices
  let now: Date
  /// Whether the route needs an app's password (all but `OPTIONS`).
  let signsIn: Bool
  var account: DAVAccount?
}

/// The owner an app signed in for, and the app.
struct DAVAccount: Sendable {
  let owner: VisitorDirectory
  let app: Devices.App
}

/// A CalDAV route's handler.
struct DAVEndpoint: Endpoint {
  let signsIn: Bool
  let handler: @Sendable (DAVContext) throws -> Response

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.dav.respond(to: request, match: match, arrival: arrival, endpoint: self)
  }
}

extension Route {
  /// `OPTIONS` at `pattern`, for a CalDAV client: answered without signing in.
  static func davOptions(
    _ pattern: RoutePattern, _ handler: @escaping @Sendable (DAVContext) throws -> Response
  )
    -> Route
  {
    Route(
      method: .options, pattern: pattern, endpoint: DAVEndpoint(signsIn: false, handler: handler))
  }
}

/// The plain answers of the DAV group: a status and a sentence, for a
/// client's log (a client shows no page).
enum DAVResponse {
  static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
    Response(
      status: status,
      headerFields: HTTPFields([HTTPField(name: .contentType, value: "text/plain; charset=utf-8")]),
      body: Array((message + "\n").utf8))
  }
}
