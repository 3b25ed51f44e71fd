import FastCGI
import HTTPTypes

/// `GET /health`: the smallest dynamic answer, for monitoring and as the
/// baseline of `make bench` (what the backend costs before any work).
enum HealthPage {
  static let path = "/health"
  /// Made once: the answer never changes.
  static let ok = Response(
    status: .ok,
    headerFields: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
    body: Array("ok\n".utf8))

  static func respond(to request: Request) -> Response {
    let method = request.method
    guard method == .get || method == .head else {
      return Response(status: .methodNotAllowed, headerFields: [.allow: "GET, HEAD"])
    }
    return ok
  }
}
