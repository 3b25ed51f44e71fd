import FastCGI

/// The pages of the walking skeleton, before the web layer exists.
enum SkeletonSite {
  static func respond(_ request: Request) -> Response {
    switch request.path {
    case "/", "/health":
      guard request.method == "GET" || request.method == "HEAD" else {
        return Response(status: 405, headers: [("Allow", "GET, HEAD")])
      }
      let body = Array(
        "<!doctype html><html lang=en><title>Checklists</title><p>Checklists is running.</p></html>\n"
          .utf8)
      return Response(
        status: 200,
        headers: [
          ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", String(body.count)),
        ],
        body: body)
    default:
      let body = Array(
        "<!doctype html><html lang=en><title>Not found</title><p>Not found.</p></html>\n".utf8)
      return Response(
        status: 404, headers: [("Content-Type", "text/html; charset=utf-8")], body: body)
    }
  }

  static let staticPages: [(file: String, html: String)] = [
    ("404.html", page(title: "Page not found", text: "There is nothing at this address.")),
    (
      "50x.html",
      page(
        title: "Checklists is unavailable",
        text: "The server is restarting or down. Your lists are safe; try again in a moment.")
    ),
  ]

  private static func page(title: String, text: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(title)</title>
    <h1>\(title)</h1>
    <p>\(text)</p>
    <p><a href="/lists">All Lists</a></p>
    </html>

    """
  }
}
