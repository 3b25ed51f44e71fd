/// One HTTP request as nginx passed it over FastCGI.
///
/// A plain value: handlers take it and return a `Response`, so they are
/// tested without sockets.
public struct Request: Sendable {
  /// `GET`, `POST`, … as sent (`REQUEST_METHOD`).
  public var method: String
  /// The path without the query string, still percent-encoded (`DOCUMENT_URI`
  /// or the path part of `REQUEST_URI`).
  public var path: String
  /// The part after `?`, without it; empty when there is none.
  public var query: String
  /// Request headers from the `HTTP_*` parameters, keyed by lower-case
  /// name with dashes (`cookie`, `content-type`, `sec-fetch-site`).
  public var headers: [String: String]
  /// True when the request reached nginx over TLS (`HTTPS=on`).
  public var isHTTPS: Bool
  /// The port nginx accepted the connection on (`SERVER_PORT`), nil when
  /// nginx did not pass it. Not the client's word: the origin check needs
  /// it because a `Host` rewritten to `$host` (Debian's `fastcgi_params`)
  /// has lost the port the browser used.
  public var serverPort: Int?
  /// The client's address as nginx saw it (`REMOTE_ADDR`).
  public var remoteAddress: String
  /// The body, at most the cap the server was configured with.
  public var body: [UInt8]
  /// True when the body was longer than the cap; `body` is then empty and
  /// the handler should answer `413`.
  public var bodyTooLarge: Bool

  public init(
    method: String, path: String, query: String = "", headers: [String: String] = [:],
    isHTTPS: Bool = false, serverPort: Int? = nil, remoteAddress: String = "127.0.0.1",
    body: [UInt8] = [], bodyTooLarge: Bool = false
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.isHTTPS = isHTTPS
    self.serverPort = serverPort
    self.remoteAddress = remoteAddress
    self.body = body
    self.bodyTooLarge = bodyTooLarge
  }

  /// The value of a header by case-insensitive name, e.g. `header("Cookie")`.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }
}
