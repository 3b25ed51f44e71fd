import ArgumentParser
import ChecklistsWeb
import Documents
import FastCGI
import FileSystem
import Foundation
import Logging
import MetricsExposition
import PostgresStore
import ServiceMetrics
import Synchronization

/// `checklists serve`: answers nginx's FastCGI requests until SIGTERM/SIGINT.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve FastCGI requests from nginx.")

  @Option(help: "Listen on this Unix socket (mode 0660).")
  var socket: String?

  @Option(help: "Group of the Unix socket, so that nginx's workers can connect.")
  var socketGroup: String?

  @Option(help: "Listen on this TCP port of 127.0.0.1 instead of a socket.")
  var port: Int?

  @Option(
    help:
      "Listen on this IPv4 address and port (e.g. 10.0.0.11:9000), for an nginx on another host; an address other than 127.x.x.x needs --allow-from."
  )
  var listen: String?

  @Option(
    help: ArgumentHelp(
      "The only IPv4 addresses that may connect over TCP, separated by commas (e.g. 10.0.0.10); any other is refused and logged. FCGI_WEB_SERVER_ADDRS in the environment says the same.",
      valueName: "addresses"))
  var allowFrom: String?

  @Option(
    help:
      "Worker threads; keep it above the idle connections nginx keeps (upstream keepalive × nginx workers)."
  )
  var threads: Int = ServerConfiguration.defaultThreads

  @Option(help: "The data directory.")
  var data: String = "data"

  @Option(help: StoreLocation.help)
  var store: StoreLocation = .files

  @Option(help: "Largest request body read, in bytes (nginx's client_max_body_size is the same).")
  var maxBody: Int = ServerConfiguration.defaultMaximumBodySize

  @Option(help: "The Mustache templates.")
  var templates: String = "Templates"

  @Option(help: "The public directory nginx serves (assets are fingerprinted from it).")
  var `public`: String = "Public"

  @Option(
    name: .customLong("cache-size"),
    help: ArgumentHelp(
      "Memory for visitors' decoded checklists, in MiB (each taken as its file's length times a measured factor).",
      valueName: "MiB"))
  var modelCacheMegabytes: Int = Self.defaultModelCacheMegabytes
  static let defaultModelCacheMegabytes =
    ApplicationConfiguration.defaultModelCacheBudget / (1024 * 1024)

  @Option(
    help: ArgumentHelp(
      "At most this many visitors' decoded checklists besides --cache-size, and their preferences, devices and links (older set-ups; 4000 for those by default).",
      visibility: .hidden))
  var cacheCapacity: Int?

  @Option(
    name: .customLong("page-cache-size"),
    help: ArgumentHelp(
      "Memory for whole answers to revisited pages, in MiB (each body at most 16 KiB; an eighth for shared links' pages).",
      valueName: "MiB"))
  var memoMegabytes: Int = Self.defaultMemoMegabytes
  static let defaultMemoMegabytes = ApplicationConfiguration.defaultMemoBudget / (1024 * 1024)

  @Option(
    name: .customLong("row-cache-size"),
    help: ArgumentHelp(
      "Memory for the rendered rows of visitors' list pages, in MiB (a page computed again writes its unchanged rows as they were); 0 keeps none.",
      valueName: "MiB"))
  var rowCacheMegabytes: Int = ApplicationConfiguration.defaultRowCacheBudget / (1024 * 1024)

  @Option(
    name: .customLong("page-cache-capacity"),
    help: ArgumentHelp(
      "At most this many whole answers besides --page-cache-size (older set-ups; none by default).",
      visibility: .hidden))
  var memoCapacity: Int?

  @Option(
    help:
      "The origin browsers reach the site at (e.g. https://lists.example.org): the only Origin a form post may carry. Without it, posts are compared with the request's Host and port."
  )
  var publicOrigin: String?

  @Option(
    help: ArgumentHelp(
      "Serve Prometheus metrics over plain HTTP at http://ADDRESS:PORT/metrics (e.g. 127.0.0.1:9101), on this host alone; an address other than 127.x.x.x needs --metrics-allow-from.",
      valueName: "address:port"))
  var metrics: String?

  @Option(
    help: ArgumentHelp(
      "The only IPv4 addresses that may scrape --metrics, separated by commas (e.g. 10.0.0.5); any other is closed unanswered and logged.",
      valueName: "addresses"))
  var metricsAllowFrom: String?

  func validate() throws {
    try store.validated()
    guard [socket != nil, port != nil, listen != nil].filter({ $0 }).count == 1 else {
      throw ValidationError("Give exactly one of --socket PATH, --port N or --listen ADDRESS:PORT.")
    }
    if let listen, Self.tcpAddress(listen) == nil {
      throw ValidationError("--listen takes an IPv4 address and a port, e.g. 10.0.0.11:9000.")
    }
    _ = try Self.allowList(
      listen: listen, allowFrom: allowFrom, environment: ProcessInfo.processInfo.environment)
    _ = try Self.metricsEndpoint(metrics, allowFrom: metricsAllowFrom)
    guard threads > 0 else { throw ValidationError("--threads must be at least 1.") }
    if let cacheCapacity, cacheCapacity <= 0 {
      throw ValidationError(
        "--cache-capacity must be at least 1; decoded checklists are sized by --cache-size MiB now."
      )
    }
    guard modelCacheMegabytes > 0, modelCacheMegabytes <= 1024 * 1024 else {
      throw ValidationError(
        "--cache-size takes MiB, from 1 to 1048576 (default \(Self.defaultModelCacheMegabytes)).")
    }
    guard rowCacheMegabytes >= 0, rowCacheMegabytes <= 1024 * 1024 else {
      throw ValidationError("--row-cache-size takes MiB, from 0 to 1048576 (default 16).")
    }
    guard memoMegabytes > 0, memoMegabytes <= 1024 * 1024 else {
      throw ValidationError(
        "--page-cache-size takes MiB, from 1 to 1048576 (default \(Self.defaultMemoMegabytes)).")
    }
    if let memoCapacity, memoCapacity <= 0 {
      throw ValidationError(
        "--page-cache-capacity must be at least 1; the page cache is sized by --page-cache-size MiB now."
      )
    }
    if let publicOrigin, PublicOrigin(publicOrigin) == nil {
      throw ValidationError(
        "--public-origin must be http(s)://host[:port], with no path or trailing slash.")
    }
  }

  func run() throws {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    let logger = Logger(label: "checklists")
    let address: ServerConfiguration.Address =
      if let socket {
        .unixSocket(path: socket, group: socketGroup)
      } else if let listen, let (host, port) = Self.tcpAddress(listen) {
        .tcp(host: host, port: port)
      } else {
        .loopback(port: port!)
      }
    let origin = publicOrigin.flatMap(PublicOrigin.init)  // checked in validate()
    let allowedPeers = try Self.allowList(
      listen: listen, allowFrom: allowFrom, environment: ProcessInfo.processInfo.environment)
    if case .postgres(let uri) = store, StoreLocation.holdsPassword(uri) {
      logger.warning(
        "the --store URI holds a password, which any user of this machine can read in the process list: put it in a passfile (PGPASSFILE, README's \"Several hosts on PostgreSQL\")"
      )
    }
    var configuration: ApplicationConfiguration
    let documents: any DocumentStore
    do {
      documents = try store.documents(dataDirectory: data, logger: logger)
      configuration = ApplicationConfiguration(
        dataDirectory: data, documents: documents,
        templatesDirectory: templates, publicDirectory: `public`,
        cacheCapacity: cacheCapacity ?? ApplicationConfiguration.defaultCacheCapacity,
        modelCacheBudget: modelCacheMegabytes * 1024 * 1024,
        modelCacheCapacity: cacheCapacity ?? ApplicationConfiguration.defaultModelCacheCapacity,
        memoBudget: memoMegabytes * 1024 * 1024,
        memoCapacity: memoCapacity ?? ApplicationConfiguration.defaultMemoCapacity,
        publicOrigin: origin)
      configuration.rowCacheBudget = rowCacheMegabytes * 1024 * 1024
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
    if let database = documents as? PostgresDocuments {
      configuration.isReady = { database.isReady() }
    }
    guard let clock = ClockOffset.clock(environment: ProcessInfo.processInfo.environment) else {
      logger.critical("cannot start: \(ClockOffset.variable) is not a number of seconds")
      throw ExitCode.failure
    }
    configuration.clock = clock
    let endpoint = try Self.metricsEndpoint(metrics, allowFrom: metricsAllowFrom)
    if endpoint != nil { configuration.requestMetrics = RequestMetrics(routes: .checklists) }
    let (handler, prepareThread, pageCacheUsage, cacheUsage) = try Self.application(
      configuration, logger: logger)
    let server = Server(
      configuration: ServerConfiguration(
        address: address, threads: threads, maximumBodySize: maxBody,
        // The import's upload, up to 1 MiB (nginx's location for it says the same).
        largerBodies: RouteTable.checklists.largerBodies, allowedPeers: allowedPeers),
      log: { level, message in
        switch level {
        case .warning: logger.warning("\(message)")
        case .error: logger.error("\(message)")
        }
      },
      prepareThread: prepareThread,
      handler: handler
    )
    do {
      try server.listen()
      if let endpoint {
        let export = MetricsExport(
          requests: configuration.requestMetrics, workers: { server.workers },
          caches: cacheUsage)
        let listener = try MetricsListener(
          host: endpoint.host, port: endpoint.port, allowed: endpoint.allowed, export: export,
          refused: { peer in logger.warning("metrics: refused a scrape from \(peer)") })
        listener.start()
        logger.info("metrics at http://\(endpoint.host):\(endpoint.port)/metrics")
      }
    } catch {
      logger.critical("\(error)")
      throw ExitCode.failure
    }
    logger.info(
      "serving on \(socket ?? listen ?? "127.0.0.1:\(port!)") with \(threads) threads, documents in \(store)"
    )
    logger.info(
      "page cache: \(memoMegabytes) MiB; decoded checklists: \(modelCacheMegabytes) MiB; list rows: \(rowCacheMegabytes) MiB"
    )
    if let cacheCapacity {
      logger.warning(
        "--cache-capacity \(cacheCapacity): at most that many visitors' checklists are kept decoded, within --cache-size \(modelCacheMegabytes) MiB, which alone sizes that cache now"
      )
    }
    if let memoCapacity {
      logger.warning(
        "--page-cache-capacity \(memoCapacity): at most that many pages are kept, within --page-cache-size \(memoMegabytes) MiB, which alone sizes the page cache now"
      )
    }
    if let origin {
      logger.info("form posts accepted only from \(origin)")
    }
    if let allowedPeers, socket == nil {
      logger.info("connections accepted only from \(allowedPeers)")
    }
    server.runUntilSignalled { signal in
      logger.info("signal \(signal): draining")
    }
    if let usage = pageCacheUsage() {
      logger.info("stopped; \(usage)")
    } else {
      logger.info("stopped")
    }
  }

  /// The application's request handler and thread preparation; when its
  /// documents cannot be reached yet, `StartingAnswer`'s `503`s until
  /// `LateApplication` has started it (a host and its database may start
  /// in any order).
  static func application(_ configuration: ApplicationConfiguration, logger: Logger) throws
    -> (
      handler: @Sendable (Request) -> Response, prepareThread: @Sendable () -> Void,
      pageCacheUsage: @Sendable () -> String?, cacheUsage: @Sendable () -> [CacheUsage]
    )
  {
    do {
      let application = try Application(configuration: configuration, logger: logger)
      return (
        application.respond(to:), application.prepareWorkerThread,
        { application.pageCacheUsage }, { application.cacheUsage }
      )
    } catch  where waitsForDocuments(error) {
      let starting: StartingAnswer
      do {
        starting = try StartingAnswer(
          templatesDirectory: configuration.templatesDirectory,
          publicDirectory: configuration.publicDirectory)
      } catch {
        logger.critical("cannot start: \(error)")
        throw ExitCode.failure
      }
      logger.warning("starting without the documents (\(error)): 503 until they can be reached")
      let late = LateApplication()
      late.start(configuration: configuration, logger: logger)
      let documents = configuration.documents
      return (
        { late.application?.respond(to: $0) ?? starting.respond(to: $0) },
        { try? documents.prepareThread() },
        { late.application?.pageCacheUsage }, { late.application?.cacheUsage ?? [] }
      )
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
  }

  /// True when the application could not start only because its documents
  /// cannot be reached now (a database down or starting up), which time
  /// may mend; a refused login, a damaged secret or a broken template stop
  /// the start.
  static func waitsForDocuments(_ error: any Error) -> Bool {
    switch error {
    case ServerSecretError.file(let failure): failure.isUnavailable
    case let failure as DocumentError: failure.isUnavailable
    default: false
    }
  }

  /// The peers allowed to connect: `--allow-from`'s, or else libfcgi's
  /// `FCGI_WEB_SERVER_ADDRS` (the server then applies it itself, so that a
  /// refusal is logged). Throws when an entry is not an IPv4 address, when
  /// both are given, and when `listen` is reachable from other machines (not
  /// 127.x.x.x) with no list: such a backend would take requests, and the
  /// client address, scheme and host they claim, from anyone.
  static func allowList(listen: String?, allowFrom: String?, environment: [String: String])
    throws(ValidationError) -> PeerAllowList?
  {
    let fromEnvironment = environment["FCGI_WEB_SERVER_ADDRS"].flatMap { $0.isEmpty ? nil : $0 }
    if allowFrom != nil, fromEnvironment != nil {
      throw ValidationError(
        "Give the allow-list once: --allow-from or FCGI_WEB_SERVER_ADDRS, not both.")
    }
    var list: PeerAllowList?
    if let text = allowFrom ?? fromEnvironment {
      guard let parsed = PeerAllowList(parsing: text) else {
        let source = allowFrom != nil ? "--allow-from" : "FCGI_WEB_SERVER_ADDRS"
        throw ValidationError(
          "\(source) takes IPv4 addresses separated by commas, e.g. 10.0.0.10,10.0.0.12.")
      }
      list = parsed
    }
    if list == nil, let listen, let (host, _) = tcpAddress(listen),
      IPv4Address(host)?.isLoopback != true
    {
      throw ValidationError(
        "--listen \(listen) can be reached from other machines: give --allow-from with the addresses of the nginx that may connect (or set FCGI_WEB_SERVER_ADDRS)."
      )
    }
    return list
  }

  /// Where `--metrics` listens and who may scrape it. Throws when the
  /// address is not `ADDRESS:PORT`, when an allow-list entry is not an IPv4
  /// address, and when the address is reachable from other machines (not
  /// 127.x.x.x) with no allow-list: the metrics are no visitor's, but they
  /// tell a stranger how busy the service is and what it runs.
  static func metricsEndpoint(_ metrics: String?, allowFrom: String?) throws(ValidationError)
    -> (host: IPv4Address, port: Int, allowed: PeerAllowList?)?
  {
    guard let metrics else {
      if allowFrom != nil { throw ValidationError("--metrics-allow-from needs --metrics.") }
      return nil
    }
    guard let (text, port) = tcpAddress(metrics), let host = IPv4Address(text) else {
      throw ValidationError("--metrics takes an IPv4 address and a port, e.g. 127.0.0.1:9101.")
    }
    var allowed: PeerAllowList?
    if let allowFrom {
      guard let parsed = PeerAllowList(parsing: allowFrom) else {
        throw ValidationError(
          "--metrics-allow-from takes IPv4 addresses separated by commas, e.g. 10.0.0.5,10.0.0.6.")
      }
      allowed = parsed
    }
    if allowed == nil, !host.isLoopback {
      throw ValidationError(
        "--metrics \(metrics) can be reached from other machines: give --metrics-allow-from with the addresses of the Prometheus that scrapes it."
      )
    }
    return (host, port, allowed)
  }

  /// `ADDRESS:PORT` with a dotted IPv4 address and a port in 1...65535.
  static func tcpAddress(_ text: String) -> (host: String, port: Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let port = Int(parts[1]), (1...65_535).contains(port) else {
      return nil
    }
    let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return nil }
    return (String(parts[0]), port)
  }
}
