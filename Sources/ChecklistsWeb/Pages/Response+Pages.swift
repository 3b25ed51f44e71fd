import FastCGI

/// The answers a handler builds besides the error page (`PageRenderer`):
/// a page with its tag, `304 Not Modified`, and `303 See Other`.
extension Response {
  /// A rendered page with its tag: `200`, or `304` with no body when the
  /// browser's copy is still the same.
  static func page(body: [UInt8], etag: ETag, for request: Request) -> Response {
    if etag.isNotModified(request) { return .notModified(etag) }
    return Response(
      status: 200,
      headers: [("Content-Type", "text/html; charset=utf-8"), ("ETag", etag.value)], body: body)
  }

  /// `304 Not Modified` with the page's tag and the cookies the full answer
  /// (`page`) sets: a revalidated page still moves `ChecklistIndex` (the
  /// landing rule) and renews the visitor cookie.
  static func notModified(_ etag: ETag, setting page: Response? = nil) -> Response {
    var headers = [("ETag", etag.value)]
    for cookie in page?.headers(named: "Set-Cookie") ?? [] {
      headers.append(("Set-Cookie", cookie))
    }
    return Response(status: 304, headers: headers)
  }

  /// `303 See Other`: the answer to every change (Post/Redirect/Get), and
  /// the landing rule's way into a list.
  static func redirect(to location: String) -> Response {
    Response(
      status: 303,
      headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
      body: Array("See \(location)\n".utf8))
  }
}
