import FastCGI
import HTTPTypes

/// `GET /health`: the smallest dynamic answer, for monitoring and as the
/// baseline of `make bench` (what the backend costs before any work).
enum HealthPage {
  static let path = "/health"
  static let body = Array("ok\n".utf8)
  static let headerFields = HTTPFields([
    Response.plainTextContentType, HTTPField(name: .cacheControl, value: "no-store"),
  ])

  static func respond(to request: Request) -> Response {
    guard request.method == .get || request.method == .head else {
      return Response(status: .methodNotAllowed, headerFields: [.allow: "GET, HEAD"])
    }
    return Response(status: .ok, headerFields: headerFields, body: body)
  }
}
