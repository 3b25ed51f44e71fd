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
/// tells it apart. The feed carries its `ETag` and its `Last-Modified`,
/// so a calendar that polls every few minutes is mostly answered `304`
/// with no body (`ConditionalGET`).
enum CalendarFeedRoute {
  /// The feed, or nil for a secret that is nobody's.
  static func show(_ context: FeedContext) throws -> Response? {
    let services = context.services
    guard let visitor = try services.calendars.visitor(presenting: context.secret) else {
      return nil
    }
    let stored = try services.store.loadVersioned(visitor)
    // When the lists or (with none yet) the secret were written: a file's
    // modification time, a database row's write time (never 1970, which a
    // client's `If-Modified-Since` of any date would find unchanged).
    let storedAt: Int64
    if let version = stored.version {
      storedAt = version.modifiedSeconds
    } else {
      let documents = services.store.configuration.documents
      storedAt =
        try documents.identity(of: CalendarAddresses.secretPath(of: visitor))?.modifiedSeconds ?? 0
    }
    let feed = CalendarFeed(
      model: stored.model ?? DataModel(), visitorKey: visitor.key, now: context.now,
      storedAt: storedAt)
    let language =
      AcceptLanguage.preferred(context.request.headerFields.value(of: .acceptLanguage))
      ?? .english
    let body = feed.render(catalogue: services.translations[language])
    var response = response(
      body: body, etag: ETag(body: body), lastModified: feed.lastModified)
    response.headerFields.append(LanguageChoice.vary)
    return response
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

  /// `200` with the feed, its tag and its date.
  static func response(body: [UInt8], etag: ETag, lastModified: Int64) -> Response {
    var headerFields = HTTPFields()
    headerFields.append(contentType)
    headerFields.append(HTTPField(name: .eTag, value: etag.value))
    headerFields.append(
      HTTPField(name: .lastModified, value: HTTPDate.format(secondsSince1970: lastModified)))
    for field in fields { headerFields.append(field) }
    return Response(status: .ok, headerFields: headerFields, body: body)
  }
}
