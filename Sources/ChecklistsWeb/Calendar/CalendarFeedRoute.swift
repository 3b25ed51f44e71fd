import ChecklistsModel
import FastCGI
import FileSystem
import Foundation
import HTTPTypes
import Storage

/// `GET /calendar/{secret}.ics`: the visitor's reminders for their
/// calendar app (see `CalendarFeed`), reached by the secret alone.
///
/// A token that is nobody's current secret (unknown, malformed, replaced,
/// removed) gets the page every unknown address gets, with nothing that
/// tells it apart. The feed is conditional on its `ETag` and its
/// `Last-Modified`, so a calendar that polls every few minutes is mostly
/// answered `304` with no body.
enum CalendarFeedRoute {
  /// The feed, a `304`, or nil for a secret that is nobody's.
  static func show(_ context: FeedContext) throws -> Response? {
    let application = context.application
    guard let visitor = try application.calendars.visitor(presenting: context.secret) else {
      return nil
    }
    let stored = try application.store.loadVersioned(visitor)
    // When the lists or (with none yet) the secret were written: a file's
    // modification time, a database row's write time (never 1970, which a
    // client's `If-Modified-Since` of any date would find unchanged).
    let storedAt: Int64
    if let version = stored.version {
      storedAt = version.modifiedSeconds
    } else {
      let documents = application.store.configuration.documents
      storedAt =
        try documents.identity(of: CalendarAddresses.secretPath(of: visitor))?.modifiedSeconds ?? 0
    }
    let feed = CalendarFeed(
      model: stored.model ?? DataModel(), visitorKey: visitor.key, now: context.now,
      storedAt: storedAt)
    let body = feed.render()
    return response(
      body: body, etag: ETag(body: body), lastModified: feed.lastModified, for: context.request,
      now: context.now)
  }

  /// `Cache-Control`: the feed belongs to one visitor, so no shared cache
  /// keeps it (`private`; its address is its only key), and a client must
  /// ask again before each use (`no-cache`), which costs a `304` when
  /// nothing changed. Not `no-store`: a calendar app may keep its copy and
  /// revalidate it.
  static let cacheControl = "private, no-cache"

  /// The header fields of the feed and of its `304`.
  static let fields: [HTTPField] = [
    HTTPField(name: .cacheControl, value: cacheControl),
    // The address is a secret: nothing reached from here learns it.
    HTTPField(name: .referrerPolicy, value: "no-referrer"),
    // Never in a search engine's index, should the address leak.
    HTTPField(name: .xRobotsTag, value: "noindex, nofollow"),
  ]

  static let contentType = HTTPField(name: .contentType, value: "text/calendar; charset=utf-8")

  /// `200` with the feed, or `304` when the client's copy is current: by
  /// `If-None-Match` when it is sent (it wins, RFC 9110 §13.2.2), else by
  /// `If-Modified-Since`. A feed changed in the current second is never
  /// `304` by date alone, since a second change within it would share the
  /// date.
  static func response(
    body: [UInt8], etag: ETag, lastModified: Int64, for request: Request, now: Date
  ) -> Response {
    var headerFields = HTTPFields()
    headerFields.append(HTTPField(name: .eTag, value: etag.value))
    headerFields.append(
      HTTPField(name: .lastModified, value: HTTPDate.format(secondsSince1970: lastModified)))
    for field in fields { headerFields.append(field) }
    if isNotModified(request, etag: etag, lastModified: lastModified, now: now) {
      return Response(status: .notModified, headerFields: headerFields)
    }
    headerFields.insert(contentType, at: 0)
    return Response(status: .ok, headerFields: headerFields, body: body)
  }

  static func isNotModified(_ request: Request, etag: ETag, lastModified: Int64, now: Date)
    -> Bool
  {
    guard request.method == .get || request.method == .head else { return false }
    if let tags = request.headerFields.value(of: .ifNoneMatch) {
      return etag.matches(ifNoneMatch: tags)
    }
    guard let text = request.headerFields.value(of: .ifModifiedSince),
      let since = HTTPDate.parse(text)
    else { return false }
    return lastModified <= since && lastModified < Int64(now.timeIntervalSince1970.rounded(.down))
  }
}
