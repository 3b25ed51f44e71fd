import FastCGI

/// A route's handler as its group holds it: given the request the route
/// table matched, the group runs its stages, then the handler.
///
/// Each kind of caller (a visitor's browser, a share link, a calendar app,
/// a CalDAV client) is a group with its own context type; a route line
/// names its group by the kind of its endpoint (`Route.get`, `.sharedGet`,
/// `.feed`).
protocol Endpoint: Sendable {
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response
}
