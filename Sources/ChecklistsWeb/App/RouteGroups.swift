import FastCGI

/// The route table and the groups its routes belong to, one per kind of
/// caller: a visitor's browser, a share link, a calendar app, a CalDAV
/// client. A new kind of caller is a group here, its context type and its
/// handlers; the stages every request passes are `Application`'s.
struct RouteGroups: Sendable {
  let routes: RouteTable
  let visitor: VisitorGroup
  let shared: SharedGroup
  let feed: FeedGroup
  let dav: DAVGroup
  /// The page of an address no route takes.
  let errors: ErrorPages

  /// Routes `request` to its group: the route's endpoint names it. An
  /// address no route takes is `404`, or `405` with the `Allow` its routes
  /// declare, answered as the group of its prefix answers it.
  func respond(to request: Request, arrival: Arrival) -> Response {
    let outcome = routes.resolve(request)
    let page: WebError
    switch outcome {
    case .matched(let match):
      arrival.route?.record(match.position)
      return match.route.endpoint.respond(
        to: request, match: match, arrival: arrival, in: self)
    case .methodNotAllowed:
      page = .methodNotAllowed(allow: outcome.allowHeader ?? "")
    case .notFound:
      page = .pageNotFound
    }
    if SharedPages.isShared(request.path) { return shared.unrouted(request, page) }
    return errors.unknownAddress(request, page: page)
  }
}
