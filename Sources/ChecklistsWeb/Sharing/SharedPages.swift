import FastCGI
import HTTPTypes

/// What every answer under `/s/` shares: its addresses, its layout and its
/// header fields.
enum SharedPages {
  /// The first segment of every shared address.
  static let prefix = "/s/"

  /// The shared page of the link whose token is `token`.
  static func path(_ token: String) -> String { prefix + token }

  /// The layout shared pages are rendered in: the site's, less its
  /// navigation (All Lists and Settings are the owner's, not the link's).
  static let layout = "shared-layout"

  /// True for a path under `/s/` (or `/s` itself).
  static func isShared(_ path: String) -> Bool {
    path == "/s" || path.hasPrefix(prefix)
  }

  /// The fields of every answer under `/s/`, whatever its status (`404`
  /// and `403` included), set before the site's own (`SecurityHeaders`, see `SharedGroup`):
  /// - `Referrer-Policy: no-referrer`: the page's address is the link, so
  ///   nothing it leads to (a link in an item's text, the stylesheet) may
  ///   be told it;
  /// - `X-Robots-Tag`: never in a search engine's index, should a link leak;
  /// - `Cache-Control: private, no-cache`: no shared cache keeps it, and a
  ///   browser revalidates (a `304` when nothing changed).
  static let fields: [HTTPField] = [
    HTTPField(name: .referrerPolicy, value: "no-referrer"),
    HTTPField(name: .xRobotsTag, value: "noindex, nofollow"),
    HTTPField(name: .cacheControl, value: SecurityHeaders.perVisitorCacheControl),
  ]
}
