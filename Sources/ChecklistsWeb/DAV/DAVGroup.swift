import ChecklistsModel
import Documents
import FastCGI
import Foundation
import HTTPTypes
import Preferences
import ServiceMetrics
import Storage

/// The routes of a CalDAV client (`/dav/`): a calendar app that reads and
/// writes an owner's lists itself, signed in with an app password made on
/// the Devices screen (`DevicesScreen+Apps`).
///
/// Its stages: the headers every answer gets (no per-visitor page here: a
/// client, not a browser, reads it), then `BasicAuthentication` for every
/// route but `OPTIONS`, which says only what the server offers. No cookie
/// is read or set: an app's password reaches the owner's lists through
/// these routes and nothing else.
final class DAVGroup: Sendable {
  let services: DAVServices
  private let pipeline: Pipeline<DAVContext>

  init(services: DAVServices) {
    self.services = services
    pipeline = Pipeline([
      HeaderStage<DAVContext>(fields: SecurityHeaders.common),
      BasicAuthentication(),
    ])
  }

  /// Answers a CalDAV route.
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, endpoint: DAVEndpoint
  ) -> Response {
    let context = DAVContext(
      request: request, route: match.route, parameters: match.parameters, services: services,
      now: arrival.now, signsIn: endpoint.signsIn)
    do {
      return try pipeline.respond(to: request, context: context) { _, context in
        try endpoint.handler(context)
      }
    } catch {
      return SecurityHeaders.applying(
        SecurityHeaders.common, to: Self.response(for: error, in: context.catalogue))
    }
  }

  /// The answer to what a handler threw past its own refusals: the store's
  /// failures (a read's, mostly) as `DAVRefusal.store`, anything else `500`.
  static func response(for error: any Error, in catalogue: Catalogue) -> Response {
    switch error {
    case let error as StoreError: DAVRefusal.store(error).response(in: catalogue)
    case let error as DocumentError: DAVRefusal.store(.io(error)).response(in: catalogue)
    case PreferencesError.unavailable: DAVRefusal.unavailable.response(in: catalogue)
    default:
      DAVResponse.plain(.internalServerError, catalogue.text(translatable("internal error")))
    }
  }
}

/// What the DAV group's handlers use.
struct DAVServices: Sendable {
  let devices: DeviceStore
  let store: ChecklistStore
  /// The owners' settings: their time zone.
  let defaults: Defaults
  /// Wrong passwords per client address (see `BasicAuthentication`).
  let attempts: AttemptLimiter
  /// The collections' tags, per version of their owner's file.
  let collectionTags = DAVCollectionTags.Cache()

  /// The catalogues the answers' sentences are worded from.
  let translations: Translations

  init(
    devices: DeviceStore, store: ChecklistStore, defaults: Defaults, translations: Translations
  ) {
    self.devices = devices
    self.store = store
    self.defaults = defaults
    self.translations = translations
    attempts = AttemptLimiter(
      limit: BasicAuthentication.attemptLimit, window: BasicAuthentication.attemptWindow,
      refusal: .appPasswordRefusal)
  }

  /// The owner's zone (Settings → Time zone), in which floating and all-day
  /// dates are read.
  func zone(of owner: VisitorDirectory) -> TimeZone {
    VisitorTimeZone.current(defaults.visitor(directory: owner.path))
  }
}

/// What a CalDAV handler is given: the request, its route, the group's
/// services, and the account the app signed in as (nil only on a route that
/// takes none).
struct DAVContext {
  let request: Request
  let route: Route
  /// The ids the route's path carried (`{list}`).
  let parameters: RouteParameters
  let services: DAVServices
  let now: Date
  /// Whether the route needs an app's password (all but `OPTIONS`).
  let signsIn: Bool
  var account: DAVAccount?

  /// The client's language (`Accept-Language`, else English) for the
  /// sentences of a refusal: looked up only when one is made.
  var catalogue: Catalogue {
    services.translations[
      AcceptLanguage.preferred(request.headerFields.value(of: .acceptLanguage)) ?? .english]
  }
}

/// The owner an app signed in for, and the app.
struct DAVAccount: Sendable {
  let owner: VisitorDirectory
  let app: Devices.App
}

/// A CalDAV route's handler.
struct DAVEndpoint: Endpoint {
  let signsIn: Bool
  let handler: @Sendable (DAVContext) throws -> Response

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.dav.respond(to: request, match: match, arrival: arrival, endpoint: self)
  }
}

extension Route {
  /// `OPTIONS` at `pattern`, for a CalDAV client: answered without signing in.
  static func davOptions(
    _ pattern: RoutePattern, _ handler: @escaping @Sendable (DAVContext) throws -> Response
  )
    -> Route
  {
    Route(
      method: .options, pattern: pattern, endpoint: DAVEndpoint(signsIn: false, handler: handler))
  }

  /// `method` at `pattern`, for a CalDAV client signed in with an app
  /// password (`signsIn: false` only for what any client may ask first).
  static func dav(
    _ method: RouteMethod, _ pattern: RoutePattern, signsIn: Bool = true,
    _ handler: @escaping @Sendable (DAVContext) throws -> Response
  ) -> Route {
    Route(
      method: method, pattern: pattern, endpoint: DAVEndpoint(signsIn: signsIn, handler: handler))
  }
}

/// The plain answers of the DAV group: a status and a sentence, for a
/// client's log or its user (a client shows no page of ours).
enum DAVResponse {
  /// The media type of a to-do resource.
  static let calendarType = "text/calendar; charset=utf-8; component=VTODO"

  /// `status` with `message`, which is in the client's language: the
  /// answer says so (`Vary: Accept-Language`), so that no cache gives it
  /// to a client asking in another.
  static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
    Response(
      status: status,
      headerFields: HTTPFields([
        HTTPField(name: .contentType, value: "text/plain; charset=utf-8"), varyByLanguage,
      ]),
      body: Array((message + "\n").utf8))
  }

  /// What an answer whose sentence is in the client's language says.
  static let varyByLanguage = HTTPField(name: .vary, value: "Accept-Language")

  /// `503` with `Retry-After`: the store failed (busy, unreachable, a
  /// system call), nothing was changed, and a client may try again, as a
  /// browser is told on the web's pages.
  static func retry(after seconds: Int, _ message: String) -> Response {
    var response = plain(.serviceUnavailable, message)
    response.headerFields[.retryAfter] = String(seconds)
    return response
  }

  /// `207 Multi-Status` with its XML.
  static func multistatus(_ body: [UInt8]) -> Response {
    Response(
      status: .multistatus,
      headerFields: HTTPFields([
        HTTPField(name: .contentType, value: "application/xml; charset=utf-8")
      ]),
      body: body)
  }

  /// A `DAV:error` body naming the precondition a request failed (RFC 4918
  /// §16), in `namespace` (CalDAV's own are in its namespace).
  static func precondition(
    _ status: HTTPResponse.Status, _ name: String, namespace: String = DAVProperty.dav,
    inner: String = "", message: String? = nil
  ) -> Response {
    let qualified = namespace == DAVProperty.dav ? "d:\(name)" : "x:\(name)"
    let declaration = namespace == DAVProperty.dav ? "" : " xmlns:x=\"\(namespace)\""
    var element =
      inner.isEmpty
      ? "<\(qualified)\(declaration)/>" : "<\(qualified)\(declaration)>\(inner)</\(qualified)>"
    var fields = [HTTPField(name: .contentType, value: "application/xml; charset=utf-8")]
    if let message {
      element += "<d:responsedescription>\(DAVValue.escaped(message))</d:responsedescription>"
      fields.append(varyByLanguage)
    }
    return Response(
      status: status,
      headerFields: HTTPFields(fields),
      body: Array(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error xmlns:d=\"DAV:\">\(element)</d:error>\n"
          .utf8))
  }
}

/// Why a DAV request was refused, and its answer.
enum DAVRefusal: Error {
  /// `Depth: infinity` (or none) on a `PROPFIND`.
  case finiteDepth
  case badRequest(DAVMessage)
  /// A body the strict XML reader refused (a DTD, an entity, malformed).
  case xml(DAVXMLError)
  /// No such list (or item) for this owner.
  case notFound
  /// A precondition (RFC 4918 §16) the request failed, with its status.
  case precondition(HTTPResponse.Status, String, namespace: String = DAVProperty.dav)
  /// The same, with a sentence for the client (`DAV:responsedescription`).
  case refused(HTTPResponse.Status, String, namespace: String, message: DAVMessage)
  /// `If-Match` or `If-None-Match` does not hold: `412`.
  case preconditionFailed
  /// Another resource of the collection has this `UID` (RFC 4791
  /// `no-uid-conflict`): its address.
  case uidConflict(String)
  /// A new resource under a name of the server's form (`<id>.ics`).
  case serverName
  /// The store failed (busy, unreachable, a system call).
  case store(StoreError)
  /// The owner's settings cannot be reached just now.
  case unavailable

  /// A collection that would keep more than `CollectionProperty.maximumCount`
  /// properties (another request filled them meanwhile): `507`.
  static let tooManyProperties = DAVRefusal.refused(
    .insufficientStorage, "properties", namespace: DAVProperty.dav,
    message: DAVMessage(
      translatable("a calendar keeps at most {{limit}} properties"),
      [("limit", String(CollectionProperty.maximumCount))]))

  /// The answer, its sentence in `catalogue`'s language.
  func response(in catalogue: Catalogue) -> Response {
    switch self {
    case .finiteDepth: DAVResponse.precondition(.forbidden, "propfind-finite-depth")
    case .badRequest(let message): DAVResponse.plain(.badRequest, message.text(catalogue))
    case .xml(let error): DAVResponse.plain(.badRequest, error.text { catalogue.text($0) })
    case .notFound:
      DAVResponse.plain(.notFound, catalogue.text(translatable("no such calendar or to-do")))
    case .precondition(let status, let name, let namespace):
      DAVResponse.precondition(status, name, namespace: namespace)
    case .refused(let status, let name, let namespace, let message):
      DAVResponse.precondition(
        status, name, namespace: namespace, message: message.text(catalogue))
    case .preconditionFailed:
      DAVResponse.plain(
        .preconditionFailed,
        catalogue.text(
          translatable("the resource is not in the state If-Match or If-None-Match asks")))
    case .uidConflict(let href):
      DAVResponse.precondition(
        .forbidden, "no-uid-conflict", namespace: DAVProperty.calDAV,
        inner: "<d:href>\(DAVValue.escaped(href))</d:href>")
    case .serverName:
      DAVResponse.plain(
        .conflict,
        catalogue.text(
          translatable("names of the form <number>.ics are the server’s: choose another")))
    case .store(let error):
      switch error {
      // Set aside for repair: trying again will not help.
      // The same sentences as the web's pages of these failures.
      case .unreadable:
        DAVResponse.plain(.internalServerError, catalogue.text(WebError.unreadableData.message))
      case .busy: DAVResponse.retry(after: 1, catalogue.text(WebError.busy.message))
      case .io: DAVResponse.retry(after: 2, catalogue.text(WebError.storeUnavailable.message))
      }
    case .unavailable:
      DAVResponse.retry(
        after: 2,
        catalogue.text(
          translatable("Your settings cannot be reached for a moment. Please try again.")))
    }
  }
}

extension HTTPResponse.Status {
  /// `207 Multi-Status` (RFC 4918 §11.1).
  static let multistatus = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")
}
