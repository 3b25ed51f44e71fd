import FastCGI
import HTTPTypes

/// `GET /health`: the smallest dynamic answer, for monitoring and as the
/// baseline of `make bench` (what the backend costs before any work).
/// `503` while the documents cannot be reached (a database that is down or
/// starting), so that a load balancer sends visitors to another host.
enum HealthPage {
  static let path = "/health"
  /// Made once: the answer never changes.
  static let ok = Response(
    status: .ok,
    headerFields: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
    body: Array("ok\n".utf8))

  static let notReady = Response(
    status: .serviceUnavailable,
    headerFields: [
      .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store", .retryAfter: "2",
    ],
    body: Array("not ready: the database is not answering\n".utf8))

  static func respond(to request: Request, ready: () -> Bool) -> Response {
    let method = request.method
    guard method == .get || method == .head else {
      return Response(status: .methodNotAllowed, headerFields: [.allow: "GET, HEAD"])
    }
    return ready() ? ok : notReady
  }
}
