import ChecklistsModel
import Documents
import FastCGI
import FileSystem
import Foundation
import HTMLTemplates
import HTTPTypes
import Logging
import Preferences
import Storage

/// The product behind nginx: a request in, a response out.
///
/// One instance serves every worker thread. What it holds is either
/// immutable (templates, assets, icons, the CSRF key) or thread-safe
/// (the preferences and the checklist store, each with its own locks).
package final class Application: Sendable {
  let configuration: ApplicationConfiguration
  let renderer: PageRenderer
  let icons: IconLibrary
  let defaults: Defaults
  let store: ChecklistStore
  /// Where every document is kept: files, or a database several hosts share.
  let documents: any DocumentStore
  /// The visitors' private calendar addresses (secrets and their index).
  let calendars: CalendarAddresses
  /// Which owner each browser acts for; link codes; sign-out.
  let devices: DeviceStore
  /// Wrong link codes per client address.
  let linkAttempts = AttemptLimiter(
    limit: LinkScreen.attemptLimit, window: LinkScreen.attemptWindow)
  /// The owners' share links (records and their index by SHA-256).
  let shares: ShareLinks
  /// The owners' pending imports, waiting for their Confirm.
  let pendingImports: PendingImports
  let csrf: CSRF
  let memo: ResponseMemo
  /// Whole shared list pages, by their link (see `Application.shared`).
  let sharedPages: ResponseMemo
  let routes: RouteTable
  let logger: Logger

  /// Loads and checks everything a request needs, so that a broken template
  /// or a missing icon stops the start, not a visitor's request.
  package init(configuration: ApplicationConfiguration, logger: Logger) throws {
    self.configuration = configuration
    self.logger = logger
    documents = configuration.documents
    try documents.prepareDirectory(configuration.dataDirectory, durable: configuration.durable)
    let templates = try TemplateLibrary(directory: configuration.templatesDirectory)
    renderer = PageRenderer(
      templates: templates, assets: try Assets(publicDirectory: configuration.publicDirectory))
    icons = try IconLibrary(publicDirectory: configuration.publicDirectory)
    csrf = CSRF(
      secret: try ServerSecret.loadOrCreate(
        inDirectory: configuration.dataDirectory, documents: documents,
        durable: configuration.durable),
      publicOrigin: configuration.publicOrigin)
    defaults = Defaults(
      logger: logger, durable: configuration.durable, documents: documents,
      cacheCapacity: configuration.cacheCapacity)
    RegisteredDefaults.register(in: defaults)
    memo = ResponseMemo(capacity: configuration.memoCapacity, documents: documents)
    sharedPages = ResponseMemo(capacity: configuration.memoCapacity, documents: documents)
    routes = .checklists  // built here, so a mistake in the table stops the start
    store = ChecklistStore(
      configuration: .init(
        dataDirectory: configuration.dataDirectory, documents: documents,
        cacheCapacity: configuration.cacheCapacity, durable: configuration.durable),
      logger: logger)
    calendars = CalendarAddresses(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents)
    devices = DeviceStore(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents,
      cacheCapacity: configuration.cacheCapacity, logger: logger)
    shares = ShareLinks(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents,
      cacheCapacity: configuration.cacheCapacity, logger: logger)
    pendingImports = PendingImports(durable: configuration.durable, documents: documents)
  }

  /// The upload routes' body caps by path, for the FastCGI server
  /// (`ServerConfiguration.largerBodies`).
  package var largerBodies: [String: Int] { routes.largerBodies }

  /// Answers one request. Never throws: every failure becomes a page with
  /// its status, and a failed change has changed nothing. A request is
  /// HTTPS when nginx says so or the public origin is `https`.
  package func respond(to received: Request) -> Response {
    // The health page sets no cookie; answered first, it pays for no copy.
    if received.path == HealthPage.path {
      return HealthPage.respond(to: received, ready: configuration.isReady)
    }
    let request = configuration.publicOrigin?.asSentByBrowser(received) ?? received
    let now = Date()
    let memoKey = ResponseMemo.Key(request)
    if let memoKey, let kept = memo.entry(for: memoKey, now: Int64(now.timeIntervalSince1970)),
      kept.answers(request)
    {
      return kept.etag.isNotModified(request)
        ? SecurityHeaders.applying(to: .notModified(kept.etag, setting: kept.response))
        : kept.response
    }
    let response: Response
    let outcome = routes.resolve(request)
    switch outcome {
    case .matched(let match) where match.route.isShared:
      response = shared(match, request, now: now)
    case .matched(let match) where memoKey != nil && match.route.isRevisited:
      return respondRemembering(match, request, key: memoKey!, now: now)
    case .matched(let match) where match.route.isFeed:
      response = feed(match, request, now: now)
    case .matched(let match):
      let cookies = request.cookies
      response = handle(
        match, request, cookies: cookies, visitor: visitor(cookies, request, now: now), now: now,
        lifetime: PageLifetime())
    case .methodNotAllowed:
      response =
        sharedRefusal(request)
        ?? renderer.errorResponse(.methodNotAllowed(allow: outcome.allowHeader ?? ""))
    case .notFound:
      response = sharedRefusal(request) ?? renderer.errorResponse(.pageNotFound)
    }
    return SecurityHeaders.applying(to: SharedPageHeaders.applying(to: response, for: request))
  }

  /// A revisited screen, computed as usual and kept in `memo` when it
  /// changed nothing. The visitor's files are looked at before the page is
  /// computed (see `ResponseMemo`), and the page is computed whole even when
  /// the browser's copy is current, so that a revalidation is kept too.
  func respondRemembering(
    _ match: RouteTable.Match, _ request: Request, key: ResponseMemo.Key, now: Date
  ) -> Response {
    let cookies = request.cookies
    let visitor = visitor(cookies, request, now: now)
    let version = visitor.isNew ? nil : memo.version(of: visitor.directory.path, now: now)
    var unconditional = request
    if request.headerFields.hasField(.ifNoneMatch) {
      unconditional.head.headerFields[.ifNoneMatch] = nil
    }
    let lifetime = PageLifetime()
    let response = SecurityHeaders.applying(
      to: handle(
        match, unconditional, cookies: cookies, visitor: visitor, now: now, lifetime: lifetime))
    if let version, !visitor.needsCookie {
      memo.keep(response, version: version, until: lifetime.bound(visitor.cookieDue), for: key)
    }
    guard response.status == .ok, let tag = response.headerFields.value(of: .eTag) else {
      return response
    }
    let etag = ETag(keptValue: tag)
    return etag.isNotModified(request)
      ? SecurityHeaders.applying(to: .notModified(etag, setting: response)) : response
  }

  /// Who the request's cookies name, judged by the day of `now`.
  func visitor(_ cookies: Cookies, _ request: Request, now: Date)
    -> VisitorSession.Visitor
  {
    VisitorSession.Visitor(
      cookies: cookies, isHTTPS: request.isHTTPS, devices: devices,
      today: VisitorCookie.today(now: now))
  }

  /// Runs a route for the visitor, commits their preferences once, and adds
  /// the cookies: the visitor's own when they are new, and the cookie-backed
  /// preferences that changed. A screen is given the visitor's checklists
  /// (every screen reads them, so a damaged file is set aside and reported
  /// on whichever page comes first); a change, its form once accepted.
  func handle(
    _ match: RouteTable.Match, _ request: Request, cookies: Cookies,
    visitor: VisitorSession.Visitor, now: Date, lifetime: PageLifetime
  ) -> Response {
    let session = VisitorSession(
      request: request, cookies: cookies, visitor: visitor, defaults: defaults, devices: devices,
      now: now)
    var response: Response
    do {
      if let problem = visitor.problem { throw problem }
      try session.preferences.requireReachable()
      if let problem = session.preferences.loadProblem {
        // The file was kept aside; the next request runs on the defaults.
        logger.error("preferences: \(problem) (\(session.directory.path))")
        throw WebError.unreadableSettings
      }
      switch match.route.handler {
      case .screen(let show):
        response = try show(
          ScreenContext(
            request: request, session: session, parameters: match.parameters, application: self,
            input: try currentModel(session), now: now, lifetime: lifetime))
      case .change(let change):
        response = try change(
          ChangeContext(
            request: request, session: session, parameters: match.parameters, application: self,
            input: try acceptedForm(request, session), now: now, lifetime: lifetime))
      case .upload(let upload):
        response = try upload(
          UploadContext(
            request: request, session: session, parameters: match.parameters, application: self,
            input: try acceptedUpload(request, session, route: match.route), now: now,
            lifetime: lifetime))
      case .feed, .sharedScreen, .sharedChange:
        throw WebError.pageNotFound  // answered by `feed` or `shared`, without a session
      }
      for cookie in session.preferenceCookies(for: try session.preferences.commit()) {
        response.setCookie(cookie)
      }
    } catch {
      response = renderer.errorResponse(webError(for: error, route: match.route))
    }
    // A handler that gave the browser a new token (a link code redeemed)
    // has set the visitor cookie itself.
    for cookie in session.visitorCookies(isHTTPS: request.isHTTPS)
    where !response.setsCookie(named: cookie.name) {
      response.setCookie(cookie)
    }
    return response
  }

  /// The page that says what went wrong; unexpected failures are logged.
  func webError(for error: any Error, route: Route) -> WebError {
    switch error {
    case let error as WebError:
      return error
    case let error as ChecklistsError:
      switch error {
      case .noSuchList: return .listNotFound
      case .noSuchItem: return .itemNotFound
      default: return .unprocessable(error.message, backHref: "/lists", backLabel: "All Lists")
      }
    // An unreachable store logs each outage once, when it starts and ends
    // (`DatabaseReadiness`), not once a request.
    case StoreError.io(let error) where error.isUnavailable:
      return .storeUnavailable
    case let error as StoreError:
      logger.error("store: \(error.detail) (\(route))")
      if case .unreadable = error { return .unreadableData }
      if case .busy = error { return .busy }
      return .internalError
    case let error as DocumentError where error.isUnavailable:
      return .storeUnavailable
    case PreferencesError.unavailable:
      return .storeUnavailable
    default:
      logger.error("\(route): \(error)")
      return .internalError
    }
  }

  /// Readies a worker thread before its first request: its database
  /// connection, when the documents are in a database. A failure is logged;
  /// the thread's first request tries again (and is answered `503` if the
  /// database is still away).
  @Sendable package func prepareWorkerThread() {
    do {
      try documents.prepareThread()
    } catch  where error.isUnavailable {
      // The store logs the outage once, not once a thread.
    } catch {
      logger.warning("a worker thread could not prepare its store: \(error)")
    }
  }

  /// The visitor's checklists as they stand: what is stored, or the
  /// first-run list while nothing is (shown, never stored, on a `GET`).
  func currentModel(_ session: VisitorSession) throws -> CurrentModel {
    let stored = try store.load(session.directory)
    return CurrentModel(
      model: FirstRun.model(stored: stored, preferences: session.preferences, commit: false),
      isFirstRun: FirstRun.isPending(stored: stored, preferences: session.preferences))
  }

  /// Changes the visitor's checklists under their lock: one write. Before
  /// the first change, the first-run `List` the visitor was shown becomes
  /// their stored model (and `FirstTime` turns false only if the change
  /// succeeds, so a refused first change leaves the visitor as they were).
  func updateModel<T>(
    _ session: VisitorSession, now: Date, _ change: (inout DataModel) throws -> T
  ) throws -> T {
    try FirstRunUpdate(preferences: session.preferences, now: now).update(
      session.directory, in: store, change)
  }

  /// A feed route: no visitor cookie read or set, no session. A secret
  /// that is nobody's gets the very answer of an unknown address. A
  /// failure is logged by its route's pattern, never by the path that
  /// carries the secret.
  func feed(_ match: RouteTable.Match, _ request: Request, now: Date) -> Response {
    guard case .feed(let answer) = match.route.handler, let secret = match.parameters.secret
    else { return renderer.errorResponse(.pageNotFound) }
    do {
      let context = FeedContext(request: request, secret: secret, application: self, now: now)
      return try answer(context) ?? renderer.errorResponse(.pageNotFound)
    } catch {
      return renderer.errorResponse(webError(for: error, route: match.route))
    }
  }
}
