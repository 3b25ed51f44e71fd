import HTTPTypes

/// The methods a route is declared with. The product's pages are HTML
/// forms and links, so a screen is a `GET` and a change is a `POST`;
/// `HEAD` is answered by the `GET` route. A CalDAV client asks what an
/// address offers with `OPTIONS`, and reads collections with `PROPFIND`.
package enum RouteMethod: UInt8, Sendable, CaseIterable, CustomStringConvertible {
  case get
  case post
  case options
  case propfind
  case report
  case put
  case delete
  case proppatch
  case mkcalendar

  static let propfindMethod = HTTPRequest.Method("PROPFIND")!
  static let reportMethod = HTTPRequest.Method("REPORT")!
  static let proppatchMethod = HTTPRequest.Method("PROPPATCH")!
  static let mkcalendarMethod = HTTPRequest.Method("MKCALENDAR")!

  /// The route method a request's method reaches (case-sensitive, as HTTP
  /// methods are; `HEAD` reaches `GET`, whose body the server drops); nil
  /// for a method no route is declared with.
  static func of(_ method: HTTPRequest.Method) -> RouteMethod? {
    switch method {
    case .get, .head: .get
    case .post: .post
    case .options: .options
    case propfindMethod: .propfind
    case reportMethod: .report
    case .put: .put
    case .delete: .delete
    case proppatchMethod: .proppatch
    case mkcalendarMethod: .mkcalendar
    default: nil
    }
  }

  /// The names `Allow` lists for an address with this method.
  var allowed: [String] {
    switch self {
    case .get: ["GET", "HEAD"]
    case .post: ["POST"]
    case .options: ["OPTIONS"]
    case .propfind: ["PROPFIND"]
    case .report: ["REPORT"]
    case .put: ["PUT"]
    case .delete: ["DELETE"]
    case .proppatch: ["PROPPATCH"]
    case .mkcalendar: ["MKCALENDAR"]
    }
  }

  /// The method's bit in a set of methods kept in two bytes.
  var bit: UInt16 { 1 << rawValue }

  /// The names `Allow` lists for each set of methods (by its bits), in the
  /// order of `allCases`: worked out once rather than for every `405`.
  static let allowedBySet: [[String]] = (0..<(1 << allCases.count)).map { bits in
    allCases.filter { bits & Int($0.bit) != 0 }.flatMap(\.allowed)
  }

  package var description: String {
    switch self {
    case .get: "GET"
    case .post: "POST"
    case .options: "OPTIONS"
    case .propfind: "PROPFIND"
    case .report: "REPORT"
    case .put: "PUT"
    case .delete: "DELETE"
    case .proppatch: "PROPPATCH"
    case .mkcalendar: "MKCALENDAR"
    }
  }
}
