import FastCGI
import Foundation
import HTTPTypes

/// The one place that decides `304 Not Modified`, for every group: a
/// handler answers `200` with its `ETag` (and `Last-Modified`, the feed),
/// and this stage, the first every request passes, answers `304` with no
/// body when the client's copy is current. So a page is always computed
/// (or kept by the memo) whole, and a revalidation is kept too.
///
/// The `304` carries every field of the full answer but those of its body,
/// which keeps the cookie rule: a revalidated page still sets the
/// `ChecklistIndex` the full page sets (the landing rule) and renews the
/// visitor cookie, and a kept answer's `304` sends what it kept.
struct ConditionalGET: Stage {
  func respond(to request: Request, context: Arrival, next: Next<Arrival>) throws -> Response {
    let response = try next(request, context)
    // The request is looked at first: most ask for nothing conditional,
    // and a memo hit pays for two look-ups of its fields, no more.
    guard response.status == .ok,
      Self.isNotModified(
        request, now: context.now,
        etag: { response.headerFields.value(of: .eTag).map(ETag.init(keptValue:)) },
        lastModified: { response.headerFields.value(of: .lastModified).flatMap(HTTPDate.parse) })
    else { return response }
    return Self.notModified(standingFor: response)
  }

  /// True when `request` is a `GET` or `HEAD` whose copy of an answer
  /// tagged `etag` is current: by `If-None-Match` when it is sent (it
  /// wins, RFC 9110 §13.2.2), else by `If-Modified-Since` against
  /// `lastModified` (seconds since 1970). The answer's fields are read
  /// only for a request that asks. An answer changed in the current second
  /// is never `304` by date alone, since a second change within it would
  /// share the date.
  static func isNotModified(
    _ request: Request, now: Date = Date(), etag: () -> ETag?,
    lastModified: () -> Int64? = { nil }
  ) -> Bool {
    guard request.method == .get || request.method == .head else { return false }
    if let tags = request.headerFields.value(of: .ifNoneMatch) {
      return etag()?.matches(ifNoneMatch: tags) ?? false
    }
    guard let text = request.headerFields.value(of: .ifModifiedSince),
      let lastModified = lastModified(), let since = HTTPDate.parse(text)
    else { return false }
    return lastModified <= since && lastModified < Int64(now.timeIntervalSince1970.rounded(.down))
  }

  /// `isNotModified` for an answer whose tag is known.
  static func isNotModified(
    _ request: Request, etag: ETag, now: Date = Date(), lastModified: () -> Int64? = { nil }
  ) -> Bool {
    isNotModified(request, now: now, etag: { etag }, lastModified: lastModified)
  }

  /// `304` for `response`: its fields but `Content-Type` and
  /// `Content-Length`, and no body.
  static func notModified(standingFor response: Response) -> Response {
    var fields = HTTPFields()
    fields.reserveCapacity(response.headerFields.count)
    for field in response.headerFields
    where !field.name.isSameField(as: .contentType)
      && !field.name.isSameField(as: .contentLength)
    {
      fields.append(field)
    }
    return Response(status: .notModified, headerFields: fields)
  }
}
