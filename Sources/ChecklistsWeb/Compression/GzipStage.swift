import FastCGI
import HTTPTypes

/// The front stage that sends an answer gzipped when the request's
/// `Accept-Encoding` allows it: every answer of the backend's is
/// compressed here or by the memo, never by nginx, which passes
/// `Content-Encoding` through (`nginx.conf` has no `gzip on`).
///
/// An answer the memo keeps or kept arrives gzipped already (compressed
/// once, at the smallest level, when `MemoKeep` keeps it for a browser or
/// when first asked for: `ResponseMemo`) and passes. Any other
/// compressible answer is compressed now at the cheapest level
/// (`Gzip.fastest`), with the same weak tag the memo gives it
/// (`ResponseMemo.gzipped`), so a page's tag does not depend on which of
/// the two sent it.
///
/// Here rather than in nginx, for the same CPU: a computed 20-item list
/// page (`/lists/N?from=…`, 7.7 KB → 1.5 KB) through nginx, `wrk -c32`,
/// nginx's and the backend's CPU time per request from /proc, three rounds
/// each on a busy 2-core machine (load 17-28): gzipped here it cost 22-40
/// µs more than plain (median 32), gzipped by nginx (`gzip on;
/// gzip_comp_level 1`, the backend sent no `Accept-Encoding`) 32-36 µs more
/// (median 35). But only here do `HEAD`, the `304` and the `200` of one
/// page agree (nginx compresses neither a `HEAD` nor a `304`, and weakens
/// the tag only of what it compressed), and every answer keeps its
/// `Content-Length` (nginx's compression is chunked).
///
/// It runs after `MemoLookup`, whose hits it never sees (they come
/// gzipped already when asked so, and a hit was ~1,500 instructions
/// dearer through this stage: 7,738 against 6,142 a kept page, callgrind),
/// and inside `ConditionalGET`, which then compares the weak tag as
/// `If-None-Match` is compared (weakly); an answer about to become a `304`
/// is not compressed, only given the tag its `200` would carry.
struct GzipStage: Stage {
  /// Bodies smaller than this go out plain: below it the gzip header and
  /// the fields outweigh what compression saves, and a `303`'s body is a
  /// line.
  static let smallestBody = 512

  func respond(to request: Request, context: Arrival, next: Next<Arrival>) throws -> Response {
    let response = try next(request, context)
    guard response.status == .ok, response.body.count >= Self.smallestBody,
      !response.headerFields.contains(.contentEncoding),
      Self.isCompressible(response.headerFields.value(of: .contentType)),
      AcceptEncoding.allowsGzip(request.headerFields.value(of: .acceptEncoding))
    else { return response }
    let tag = response.headerFields.value(of: .eTag)
    let notModified = ConditionalGET.isNotModified(
      request, now: context.now, etag: { tag.map(ETag.init(keptValue:)) },
      lastModified: { response.headerFields.value(of: .lastModified).flatMap(HTTPDate.parse) })
    guard notModified else { return ResponseMemo.gzipped(response, level: Gzip.fastest) }
    var tagged = response
    if let tag { tagged.headerFields[.eTag] = ResponseMemo.weak(tag) }
    return tagged
  }

  /// Text (pages, the feed, the exports' JSON and Markdown) and JSON;
  /// not the property list export nor images, which compress little, nor
  /// a CalDAV to-do: its strong tag is what a client's `If-Match` names,
  /// compared strongly (RFC 9110 §13.1.1), and a weakened one matches
  /// nothing (DAVx⁵'s HTTP library asks for gzip on every request).
  static func isCompressible(_ contentType: String?) -> Bool {
    guard let contentType, contentType != DAVResponse.calendarType else { return false }
    return contentType.hasPrefix("text/") || contentType.hasPrefix("application/json")
  }
}
