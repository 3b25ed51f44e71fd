import FastCGI
import HTTPTypes

/// The headers every dynamic page gets.
///
/// The policy allows only the product's own stylesheet, script and images,
/// forms that post back to the product, and `fetch` to the product (the
/// enhancement script's form submissions); no inline script or style, no
/// framing, no `<base>`; the site's own Web App Manifest (and, through
/// `script-src`, its service worker).
package enum SecurityHeaders {
  /// `Content-Security-Policy`. `connect-src 'self'` is there for the
  /// enhancement script's `fetch`, `manifest-src 'self'` for the manifest
  /// that makes the site installable (without it `default-src` refuses
  /// it); everything else not named is refused by `default-src 'none'`.
  package static let contentSecurityPolicy =
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
    + "connect-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; "
    + "frame-ancestors 'none'"

  /// `Cache-Control` for pages that belong to one visitor: shared caches
  /// must not keep them, the browser must revalidate them (with the `ETag`)
  /// before reuse. Not `no-store`, which would bar the back/forward cache.
  package static let perVisitorCacheControl = "private, no-cache"

  /// The header fields of every dynamic response, whatever its status
  /// (made once: their values are checked when a field is made).
  /// `Vary: Accept-Encoding` because any answer may go out gzipped
  /// (`GzipStage`, a kept page's form in the memo), by the request's
  /// `Accept-Encoding`; nginx compresses none of them and adds no `Vary`.
  package static let common: [HTTPField] = [
    HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
    HTTPField(name: .xContentTypeOptions, value: "nosniff"),
    HTTPField(name: .referrerPolicy, value: "same-origin"),
    HTTPField(name: .vary, value: "Accept-Encoding"),
  ]

  /// `common` plus the per-visitor `Cache-Control`.
  package static let perVisitorPage: [HTTPField] =
    common + [HTTPField(name: .cacheControl, value: perVisitorCacheControl)]

  /// `response` with each of `fields` appended unless a field of that name
  /// (in any case) is already there, so a handler's own choice wins.
  package static func applying(_ fields: [HTTPField] = perVisitorPage, to response: Response)
    -> Response
  {
    var response = response
    for field in fields where !response.headerFields.hasField(field.name) {
      response.headerFields.append(field)
    }
    return response
  }
}
