import FastCGI

/// `GET /health`: the smallest dynamic answer, for monitoring and as the
/// baseline of `make bench` (what the backend costs before any work).
enum HealthPage {
  static let path = "/health"
  static let body = Array("ok\n".utf8)

  static func respond(to request: Request) -> Response {
    guard request.method == "GET" || request.method == "HEAD" else {
      return Response(status: 405, headers: [("Allow", "GET, HEAD")])
    }
    return Response(
      status: 200,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
      body: body)
  }
}
