import ChecklistsModel
import Documents
import FastCGI
import FileSystem
import Foundation
import HTMLTemplates
import HTTPTypes
import Logging
import Preferences
import ServiceMetrics
import Storage

/// The product behind nginx, a request in, a response out: the
/// composition root, where the services are made and the groups of routes
/// put together.
///
/// Every request passes these stages first: `ConditionalGET` (the one place
/// that answers `304`), `MemoLookup` (a returning visitor's repeated
/// `GET`, answered whole before it is routed), `SharedMemoLookup` (a
/// shared list's kept page, likewise) and `GzipStage`; then the route
/// table hands it to the group of its route (`RouteGroups`), which runs
/// its own stages.
///
/// One instance serves every worker thread. What it holds is either
/// immutable (templates, assets, icons, the CSRF key) or thread-safe
/// (the preferences and the checklist store, each with its own locks).
package final class Application: Sendable {
  let configuration: ApplicationConfiguration
  let defaults: Defaults
  let store: ChecklistStore
  /// Where every document is kept: files, or a database several hosts share.
  let documents: any DocumentStore
  /// The owners' share links (records and their index by SHA-256).
  let shares: ShareLinks
  let memo: ResponseMemo
  /// Whole shared list pages, by their link (see `SharedMemo`).
  let sharedPages: ResponseMemo
  /// The rendered rows of owners' list pages (`RowFragments`).
  let rowFragments: RowFragments
  let groups: RouteGroups
  let logger: Logger
  /// The stages every request passes before it is routed.
  private let front: Pipeline<Arrival>
  /// Each answer counted and timed by route and status; nil: not kept.
  private let metrics: RequestMetrics?

  /// Loads and checks everything a request needs, so that a broken template
  /// or a missing icon stops the start, not a visitor's request.
  package init(configuration: ApplicationConfiguration, logger: Logger) throws {
    var configuration = configuration
    // One document store for every service, which answers a request's
    // reads of its owner's documents from its view of their directory
    // (`MemoKeep`): three documents a visitor, for as many visitors as the
    // decoded caches hold.
    configuration.documents = ViewedDocuments(
      configuration.documents, capacity: 3 * configuration.cacheCapacity)
    self.configuration = configuration
    self.logger = logger
    documents = configuration.documents
    try documents.prepareDirectory(configuration.dataDirectory, durable: configuration.durable)
    let renderer = try PageRenderer(
      templatesDirectory: configuration.templatesDirectory,
      publicDirectory: configuration.publicDirectory)
    for copy in StaticSite.staleCompressedCopies(in: configuration.publicDirectory) {
      logger.warning(
        "\(copy) is not its file gzipped: nginx sends it to browsers that take gzip; run checklists generate"
      )
    }
    let csrf = CSRF(
      secret: try ServerSecret.loadOrCreate(
        inDirectory: configuration.dataDirectory, documents: documents,
        durable: configuration.durable),
      publicOrigin: configuration.publicOrigin)
    defaults = Defaults(
      logger: logger, durable: configuration.durable, documents: documents,
      cacheCapacity: configuration.cacheCapacity)
    RegisteredDefaults.register(in: defaults)
    let sharedBudget = configuration.memoBudget / ApplicationConfiguration.sharedMemoShare
    memo = ResponseMemo(
      budget: configuration.memoBudget - sharedBudget, capacity: configuration.memoCapacity,
      documents: documents)
    sharedPages = ResponseMemo(
      budget: sharedBudget, capacity: configuration.memoCapacity, documents: documents,
      kind: .shared)
    store = ChecklistStore(
      configuration: .init(
        dataDirectory: configuration.dataDirectory, documents: documents,
        cacheCapacity: configuration.modelCacheCapacity,
        cacheBudget: configuration.modelCacheBudget, durable: configuration.durable,
        clock: configuration.clock),
      logger: logger)
    let calendars = CalendarAddresses(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents)
    let devices = DeviceStore(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents,
      cacheCapacity: configuration.cacheCapacity, logger: logger)
    shares = ShareLinks(
      dataDirectory: configuration.dataDirectory, durable: configuration.durable,
      documents: documents,
      cacheCapacity: configuration.cacheCapacity, logger: logger)
    let errors = ErrorPages(renderer: renderer, logger: logger)
    let visitorServices = VisitorServices(
      configuration: configuration, renderer: renderer,
      icons: try IconLibrary(publicDirectory: configuration.publicDirectory), csrf: csrf,
      store: store, calendars: calendars, devices: devices, shares: shares,
      pendingImports: PendingImports(durable: configuration.durable, documents: documents))
    rowFragments = visitorServices.rowFragments
    groups = RouteGroups(
      routes: .checklists,  // built here, so a mistake in the table stops the start
      visitor: VisitorGroup(
        services: visitorServices, defaults: defaults, memo: memo, errors: errors),
      shared: SharedGroup(
        services: SharedServices(
          renderer: renderer, csrf: csrf, store: store, shares: shares, defaults: defaults),
        memo: sharedPages, errors: errors),
      feed: FeedGroup(
        services: FeedServices(
          calendars: calendars, store: store, translations: renderer.translations), errors: errors),
      dav: DAVGroup(
        services: DAVServices(
          devices: devices, store: store, defaults: defaults,
          translations: renderer.translations)),
      errors: errors)
    front = Pipeline([
      ConditionalGET(), MemoLookup(memo: memo), SharedMemoLookup(memo: sharedPages), GzipStage(),
    ])
    metrics = configuration.requestMetrics
    if let metrics {
      precondition(
        metrics.routes.count == groups.routes.routes.count + 2,
        "the request metrics are made from RouteTable.checklists")
    }
  }

  /// The upload routes' body caps by path, for the FastCGI server
  /// (`ServerConfiguration.largerBodies`).
  package var largerBodies: [String: Int] { groups.routes.largerBodies }

  /// Answers one request. Never throws: every failure becomes a page with
  /// its status, and a failed change has changed nothing. A request is
  /// HTTPS when nginx says so or the public origin is `https`.
  ///
  /// With metrics, the answer is counted here, after every stage, under
  /// the route the stages named (a memo hit under the route that computed
  /// it, a `304` under its page's).
  package func respond(to received: Request) -> Response {
    guard let metrics else { return answer(received, route: nil) }
    let started = RequestMetrics.now()
    var position = metrics.unmatchedPosition
    let response = withUnsafeMutablePointer(to: &position) {
      answer(received, route: RouteSlot($0))
    }
    metrics.record(route: position, status: response.status.code, since: started)
    return response
  }

  /// `respond(to:)`, saying in `route` which route answers. Inlined: as a
  /// call of its own, its response was copied out, which cost a kept page
  /// ~300 instructions (callgrind).
  @inline(__always)
  private func answer(_ received: Request, route: RouteSlot?) -> Response {
    // The health page sets no cookie; answered first, it pays for no copy.
    if received.path == HealthPage.path {
      if let metrics { route?.record(metrics.healthPosition) }
      return HealthPage.respond(to: received, ready: configuration.isReady)
    }
    let request = configuration.publicOrigin?.asSentByBrowser(received) ?? received
    let arrival = Arrival(now: configuration.clock(), route: route)
    do {
      return try front.respond(to: request, context: arrival) { request, arrival in
        self.groups.respond(to: request, arrival: arrival)
      }
    } catch {
      // The front stages throw only what the groups throw, and a group
      // answers every failure with its page.
      return groups.errors.renderer.errorResponse(.internalError)
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

  /// What the visitors' kept pages cost together (bytes) and how many there are.
  package var memoUsage: (bytes: Int, answers: Int) { memo.usage }

  /// What the page cache holds now, for the operator's log: the visitors'
  /// kept pages and the shared links', each against its part of the budget.
  /// What the kept pages (a visitor's, a shared link's), the decoded
  /// checklists and the rendered rows take now, each against its budget:
  /// the metrics' gauges.
  package var cacheUsage: [CacheUsage] {
    let shared = configuration.memoBudget / ApplicationConfiguration.sharedMemoShare
    let pages = memo.usage
    let sharedPages = sharedPages.usage
    let models = store.cachedUsage
    let rows = rowFragments.usage
    return [
      CacheUsage(
        cache: "pages", bytes: pages.bytes, entries: pages.answers,
        budget: configuration.memoBudget - shared),
      CacheUsage(
        cache: "shared", bytes: sharedPages.bytes, entries: sharedPages.answers, budget: shared),
      CacheUsage(
        cache: "models", bytes: models.bytes, entries: models.entries,
        budget: configuration.modelCacheBudget),
      CacheUsage(
        cache: "rows", bytes: rows.bytes, entries: rows.pages,
        budget: configuration.rowCacheBudget),
    ]
  }

  package var pageCacheUsage: String {
    func line(_ name: String, _ memo: ResponseMemo, _ budget: Int) -> String {
      let usage = memo.usage
      let mebibytes = Double(usage.bytes) / 1_048_576
      return "\(name) \(usage.answers) pages, \(String(format: "%.1f", mebibytes)) of "
        + "\(String(format: "%.1f", Double(budget) / 1_048_576)) MiB"
    }
    let shared = configuration.memoBudget / ApplicationConfiguration.sharedMemoShare
    return "page cache: " + line("visitors'", memo, configuration.memoBudget - shared) + "; "
      + line("shared links'", sharedPages, shared)
  }
}
