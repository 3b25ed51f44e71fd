import HTTPTypes

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP request as nginx passed it over FastCGI.
///
/// A plain value: handlers take it and return a `Response`, so they are
/// tested without sockets.
package struct Request: Sendable {
  /// The method, the target, the `Host` (`head.authority`) and the header
  /// fields. The target (`head.path`) is the path and query as the client
  /// sent them (`REQUEST_URI`), still percent-encoded: `%2e%2e` reaches the
  /// router as typed.
  package var head: HTTPRequest
  /// True when the request reached nginx over TLS (`HTTPS=on`), or the
  /// browser reached the site over HTTPS before a proxy that ends TLS
  /// (the application sets it when its public origin is `https`).
  package var isHTTPS: Bool
  /// The port nginx accepted the connection on (`SERVER_PORT`), nil when
  /// nginx did not pass it. Not the client's word: the origin check needs
  /// it because a `Host` rewritten to `$host` (Debian's `fastcgi_params`)
  /// has lost the port the browser used.
  package var serverPort: Int?
  /// The client's address as nginx saw it (`REMOTE_ADDR`).
  package var remoteAddress: String
  /// The body, at most the cap the server was configured with.
  package var body: [UInt8]
  /// True when the body was longer than the cap; `body` is then empty and
  /// the handler should answer `413`.
  package var bodyTooLarge: Bool

  package init(
    head: HTTPRequest, isHTTPS: Bool = false, serverPort: Int? = nil,
    remoteAddress: String = "127.0.0.1", body: [UInt8] = [], bodyTooLarge: Bool = false
  ) {
    self.head = head
    self.isHTTPS = isHTTPS
    self.serverPort = serverPort
    self.remoteAddress = remoteAddress
    self.body = body
    self.bodyTooLarge = bodyTooLarge
  }

  /// A request for `path` and `query` (without its `?`; empty for none),
  /// with `authority` as its `Host`.
  package init(
    method: HTTPRequest.Method, path: String, query: String = "", authority: String? = nil,
    headerFields: HTTPFields = [:], isHTTPS: Bool = false, serverPort: Int? = nil,
    remoteAddress: String = "127.0.0.1",
    body: [UInt8] = [], bodyTooLarge: Bool = false
  ) {
    self.init(
      head: HTTPRequest(
        method: method, scheme: nil, authority: authority,
        path: query.isEmpty ? path : path + "?" + query, headerFields: headerFields),
      isHTTPS: isHTTPS, serverPort: serverPort, remoteAddress: remoteAddress, body: body,
      bodyTooLarge: bodyTooLarge)
  }

  /// `GET`, `POST`, … as sent (`REQUEST_METHOD`).
  package var method: HTTPRequest.Method { head.method }

  /// The request's header fields (from the `HTTP_*` parameters, with
  /// `Content-Type` and `Content-Length`).
  package var headerFields: HTTPFields { head.headerFields }

  /// The target as it came: the path and, after a `?`, the query.
  var target: String { head.path ?? "/" }

  /// The path without the query string, still percent-encoded.
  package var path: String {
    let target = target
    guard let mark = Self.queryMark(in: target) else { return target }
    return String(target.utf8[..<mark])!
  }

  /// The part after the first `?`, without it; empty when there is none.
  package var query: String {
    let target = target
    guard let mark = Self.queryMark(in: target) else { return "" }
    return String(target.utf8[target.utf8.index(after: mark)...])!
  }

  /// Where the first `?` of `target` is. Searched in the string's bytes at
  /// once, by C's `memchr`: several parts of a request ask for the path
  /// (five on a kept shared page), and `firstIndex(of:)` over the bytes
  /// cost ~200 instructions each for a 35-byte path (callgrind, bench-web
  /// --profile N shared-kept: 1,025 of 6,085).
  private static func queryMark(in target: String) -> String.Index? {
    let offset = target.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      guard let base = bytes.baseAddress,
        let found = memchr(base, Int32(UInt8(ascii: "?")), bytes.count)
      else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    guard let found = offset else { return target.utf8.firstIndex(of: UInt8(ascii: "?")) }
    return found.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
  }
}
