import FastCGI
import HTTPTypes

/// The routes of the product, and what a request's method and raw path
/// reach among them.
///
/// The path is matched as it arrived, still percent-encoded: `%2e%2e` or
/// `%2F` are never decoded into segments, so they simply match nothing.
/// A trailing slash (`/lists/`) or an empty segment (`//lists`) is not found
/// rather than redirected: every address has exactly one spelling, and a
/// redirect built from a path that starts with `//` could leave the site.
/// A collection's address, as WebDAV spells it (`/dav/`), is declared with
/// its trailing slash, and then only that spelling is found.
///
/// Everything about an address is derived from the routes declared for it:
/// `405` and its `Allow`, whether a request is a change, whether its answer
/// may be kept whole.
package struct RouteTable: Sendable {
  /// A route reached by a request, with the ids its path carried.
  package struct Match: Sendable {
    package let route: Route
    package let parameters: RouteParameters
    /// The route's place in `routes`: what the request metrics count it under.
    package let position: Int
  }

  /// What the table decided for one request.
  package enum Outcome: Sendable {
    /// A known address with a method one of its routes is declared with.
    case matched(Match)
    /// A known address with another method: answer `405` with `Allow`.
    case methodNotAllowed(allowed: [String])
    /// No such address: answer `404`.
    case notFound

    /// The `Allow` header value for a `405`, e.g. `GET, HEAD, POST`.
    package var allowHeader: String? {
      guard case .methodNotAllowed(let allowed) = self else { return nil }
      return allowed.joined(separator: ", ")
    }
  }

  /// The longest path the product uses is about 60 bytes
  /// (`/lists/{18 digits}/items/{18 digits}/toggle`); anything far longer
  /// is refused before it is walked.
  static let maximumPathLength = 128

  package let routes: [Route]
  /// The routes by the number of segments of their path, so a request is
  /// compared only with the routes of its own length; each with its place
  /// in `routes`.
  private let routesBySegmentCount: [[(route: Route, position: Int)]]

  /// A table of `routes`; each method and path shape may appear once.
  init(_ routes: [Route]) {
    self.routes = routes
    var bySegmentCount: [[(route: Route, position: Int)]] = []
    for (position, route) in routes.enumerated() {
      let count = route.pattern.segments.count
      while bySegmentCount.count <= count { bySegmentCount.append([]) }
      precondition(
        !bySegmentCount[count].contains {
          $0.route.method == route.method && $0.route.pattern.shape == route.pattern.shape
        }, "\(route) is declared twice")
      bySegmentCount[count].append((route, position))
    }
    routesBySegmentCount = bySegmentCount
  }

  /// The body caps of the upload routes, by path: what the FastCGI server
  /// reads of a `POST` to each (`ServerConfiguration.largerBodies`); every
  /// other address keeps the common cap.
  package var largerBodies: [String: Int] {
    var caps: [String: Int] = [:]
    for route in routes {
      if let cap = route.maximumBodySize { caps[route.pattern.description] = cap }
    }
    return caps
  }

  /// Routes a request by its method and raw path.
  package func resolve(_ request: Request) -> Outcome {
    resolve(method: request.method, path: request.path)
  }

  /// Routes a method (case-sensitive, as HTTP methods are) and a raw path
  /// (without the query string).
  package func resolve(method: HTTPRequest.Method, path: String) -> Outcome {
    var path = path
    return path.withUTF8 { resolve(method: method, path: $0) }
  }

  /// `resolve(method:path:)` over the path's bytes, which are walked in
  /// place: no segment is copied.
  private func resolve(method: HTTPRequest.Method, path: UnsafeBufferPointer<UInt8>) -> Outcome {
    guard let count = Self.segmentCount(of: path), count < routesBySegmentCount.count else {
      return .notFound
    }
    let wanted = RouteMethod.of(method)
    var declared: UInt16 = 0  // a bit per method of the routes at this path
    for (route, position) in routesBySegmentCount[count] {
      guard let captured = route.pattern.match(path) else { continue }
      if let wanted, route.method == wanted {
        let parameters = RouteParameters(
          names: route.pattern.parameterNames, ids: captured.ids, secret: captured.secret,
          resource: captured.resource, collection: captured.collection)
        return .matched(Match(route: route, parameters: parameters, position: position))
      }
      declared |= route.method.bit
    }
    if declared == 0 { return .notFound }
    return .methodNotAllowed(allowed: RouteMethod.allowedBySet[Int(declared)])
  }

  /// The number of segments of an absolute path, or nil when it is not one
  /// of the product's shapes: not starting with `/`, too long, or with an
  /// empty segment (`//`). `/` has none; a trailing slash ends with an
  /// empty one, which only a collection's pattern (`/dav/`) matches.
  static func segmentCount(of path: UnsafeBufferPointer<UInt8>) -> Int? {
    guard path.first == UInt8(ascii: "/"), path.count <= maximumPathLength else { return nil }
    if path.count == 1 { return 0 }
    var count = 1
    var previous = UInt8(ascii: "/")
    for byte in path[1...] {
      if byte == UInt8(ascii: "/") {
        if previous == byte { return nil }
        count += 1
      }
      previous = byte
    }
    return count
  }
}
