import FastCGI
import HTTPTypes

/// Maps a request's method and raw path to a `Route`, or says why it cannot.
///
/// The path is matched as it arrived, still percent-encoded: `%2e%2e` or
/// `%2F` are never decoded into segments, so they simply match nothing.
/// A trailing slash (`/lists/`) or an empty segment (`//lists`) is not found
/// rather than redirected: every address has exactly one spelling, and a
/// redirect built from a path that starts with `//` could leave the site.
public enum Router {
  /// What the router decided for one request.
  public enum Outcome: Sendable, Hashable {
    /// A known address with an allowed method. `headOnly` is true for
    /// `HEAD`, which is routed as `GET`: answer as for `GET`, then drop the body.
    case route(Route, headOnly: Bool)
    /// A known address with another method: answer `405` with `Allow`.
    case methodNotAllowed(allowed: [HTTPRequest.Method])
    /// No such address: answer `404`.
    case notFound

    /// The `Allow` header value for a `405`, e.g. `GET, HEAD, POST`.
    public var allowHeader: String? {
      guard case .methodNotAllowed(let allowed) = self else { return nil }
      return allowed.map(\.rawValue).joined(separator: ", ")
    }
  }

  /// The longest path the product uses is about 60 bytes
  /// (`/lists/{18 digits}/items/{18 digits}/toggle`); anything far longer
  /// is refused before it is split.
  static let maximumPathLength = 128

  /// Routes a request by its method and raw path.
  public static func resolve(_ request: Request) -> Outcome {
    resolve(method: request.method, path: request.path)
  }

  /// Routes a method (case-sensitive, as HTTP methods are) and a raw path
  /// (without the query string).
  public static func resolve(method: HTTPRequest.Method, path: String) -> Outcome {
    guard let endpoints = endpoints(forPath: path) else { return .notFound }
    switch method {
    case .get:
      if let route = endpoints.get { return .route(route, headOnly: false) }
    case .head:
      if let route = endpoints.get { return .route(route, headOnly: true) }
    case .post:
      if let route = endpoints.post { return .route(route, headOnly: false) }
    default:
      break
    }
    return .methodNotAllowed(allowed: endpoints.allowedMethods)
  }

  /// The routes one address offers, by method.
  struct Endpoints: Equatable {
    var get: Route?
    var post: Route?

    var allowedMethods: [HTTPRequest.Method] {
      (get == nil ? [] : [.get, .head]) + (post == nil ? [] : [.post])
    }
  }

  /// The endpoints of a known address, or nil when the path names none.
  static func endpoints(forPath path: String) -> Endpoints? {
    guard let segments = segments(of: path) else { return nil }
    switch segments.count {
    case 0:
      return Endpoints(get: .landing)
    case 1:
      switch segments[0] {
      case "lists": return Endpoints(get: .allLists, post: .createList)
      case "settings": return Endpoints(get: .settings, post: .saveSettings)
      default: return nil
      }
    case 2:
      if segments[0] == "settings" {
        return segments[1] == "reset" ? Endpoints(post: .resetSettings) : nil
      }
      guard segments[0] == "lists" else { return nil }
      if segments[1] == "new" { return Endpoints(get: .newListForm) }
      guard let list = identifier(segments[1]) else { return nil }
      return Endpoints(get: .checklist(list: list), post: .updateList(list: list))
    case 3:
      guard segments[0] == "lists", let list = identifier(segments[1]) else { return nil }
      switch segments[2] {
      case "edit": return Endpoints(get: .editListForm(list: list))
      case "delete": return Endpoints(post: .deleteList(list: list))
      case "items": return Endpoints(post: .addItem(list: list))
      default: return nil
      }
    case 4, 5:
      guard segments[0] == "lists", let list = identifier(segments[1]), segments[2] == "items",
        let item = identifier(segments[3])
      else { return nil }
      if segments.count == 4 { return Endpoints(post: .updateItem(list: list, item: item)) }
      switch segments[4] {
      case "edit": return Endpoints(get: .editItemForm(list: list, item: item))
      case "toggle": return Endpoints(post: .toggleItem(list: list, item: item))
      case "delete": return Endpoints(post: .deleteItem(list: list, item: item))
      default: return nil
      }
    default:
      return nil
    }
  }

  /// The segments of an absolute path, or nil when it is not one of the
  /// product's shapes: not starting with `/`, too long, or with an empty
  /// segment (a trailing slash or `//`).
  static func segments(of path: String) -> [Substring]? {
    guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= maximumPathLength else {
      return nil
    }
    if path == "/" { return [] }
    let segments = path.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
    ).map { Substring($0) }
    return segments.contains(where: \.isEmpty) ? nil : segments
  }

  /// At most 18 digits, so every id fits an `Int` (whose largest value has 19).
  static let maximumIdentifierDigits = 18

  /// A stable id: 1 to 18 ASCII digits without a leading zero, so `0`,
  /// `01`, `+1`, `-1`, `1e3`, `١` (a non-ASCII digit) and 19 digits all fail.
  static func identifier(_ segment: Substring) -> Int? {
    let digits = segment.utf8
    guard let first = digits.first, first != UInt8(ascii: "0"),
      digits.count <= maximumIdentifierDigits
    else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }
}
