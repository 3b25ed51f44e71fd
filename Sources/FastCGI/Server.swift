import Foundation
import SystemPackage

/// A handler answers one request. It runs on a worker thread, many at once.
package typealias Handler = @Sendable (Request) -> Response

/// A FastCGI server: a pool of threads, each accepting and answering
/// requests from nginx over libfcgi.
///
/// `stop()` (or SIGTERM/SIGINT with `runUntilSignalled`) stops accepting,
/// lets every request in progress finish and its response go out, closes
/// idle kept connections, and returns from `run`.
package final class Server: @unchecked Sendable {
  /// How much a message from the server matters.
  package enum LogLevel: Sendable {
    /// The server works, but an operator should change something.
    case warning
    /// Something failed.
    case error
  }

  // @unchecked: the mutable state below is guarded by `lock`; the listening
  // socket and the stop pipe are written once, before any worker starts.
  private let configuration: ServerConfiguration
  private let handler: Handler
  private let lock = NSLock()
  private var stopping = false
  private var census: WorkerCensus
  private var lastSaturationWarning: ContinuousClock.Instant?
  private var refusalWarnings: RefusalWarnings
  private var listenSocket: Int32 = -1
  /// `stop()` closes the write end; the read end, then readable for good,
  /// wakes every worker waiting on a kept connection, whenever it starts
  /// waiting, so no wake-up can be missed.
  private var stopPipe: (read: Int32, write: Int32) = (-1, -1)
  private let log: @Sendable (LogLevel, String) -> Void
  private let prepareThread: @Sendable () -> Void

  /// - Parameter prepareThread: run by each worker thread before it
  ///   accepts its first connection: what a handler needs per thread (a
  ///   database connection) is then made at start, not by the first
  ///   requests, which would wait for it.
  package init(
    configuration: ServerConfiguration,
    log: @escaping @Sendable (LogLevel, String) -> Void = { _, _ in },
    prepareThread: @escaping @Sendable () -> Void = {},
    handler: @escaping Handler
  ) {
    self.configuration = configuration
    self.handler = handler
    self.log = log
    self.prepareThread = prepareThread
    self.census = WorkerCensus(threads: max(1, configuration.threads))
    self.refusalWarnings = RefusalWarnings(interval: configuration.refusalWarningInterval)
  }

  /// Opens the socket; call before `run`. Separate so that a caller can
  /// report a listening failure before it daemonises or signals readiness.
  package func listen() throws(ServerError) {
    try LibFCGI.initialise()
    // libfcgi's own SIGPIPE handling is not wanted: a client that goes away
    // must surface as a failed write, not a signal.
    Syscalls.ignore(.brokenPipe)
    // libfcgi's SIGUSR1 handler sets a process-wide flag after which its
    // accept refuses every new connection: the backend would live on, deaf.
    // SIGUSR1 means nothing here (logs go to standard error, nothing to
    // reopen), so a stray one is ignored.
    Syscalls.ignore(.user1)
    do {
      // Not inherited: a child process holding the write end would keep the
      // pipe from ever reading as closed.
      stopPipe = try Syscalls.pipe()
    } catch {
      throw .cannotCreatePipe(errno: error.rawValue)
    }
    switch configuration.address {
    case .unixSocket(let path, let group):
      Syscalls.unlink(path)
      // The socket file is made at bind() with at most 0660 (the socket's
      // own mode, narrowed by the umask): no moment in which another user
      // could connect. The umask is not changed for it: it belongs to the
      // whole process, so a directory another thread made meanwhile would
      // lose its owner's search bit (0700 made 0600), and two servers
      // starting at once could leave the changed umask in place for good.
      do {
        listenSocket = try Syscalls.listenOnUnixSocket(
          path, mode: 0o660, backlog: configuration.backlog)
      } catch {
        throw .cannotListen(address: path, errno: error.rawValue)
      }
      if let group {
        guard let id = Syscalls.groupID(named: group) else { throw .unknownGroup(group) }
        do {
          try Syscalls.changeOwner(path, group: id)
        } catch {
          throw .cannotSetPermissions(path: path, errno: error.rawValue)
        }
      }
      do {
        try Syscalls.changeMode(path, 0o660)
      } catch {
        throw .cannotSetPermissions(path: path, errno: error.rawValue)
      }
    case .loopback(let port):
      try listen(at: "127.0.0.1:\(port)")
    case .tcp(let host, let port):
      guard configuration.allowedPeers != nil || IPv4Address(host)?.isLoopback == true else {
        throw .noAllowList(address: "\(host):\(port)")
      }
      try listen(at: "\(host):\(port)")
    }
  }

  /// Listens on a TCP `host:port`.
  private func listen(at address: String) throws(ServerError) {
    listenSocket = LibFCGI.openSocket(address, backlog: configuration.backlog)
    guard listenSocket >= 0 else {
      throw .cannotListen(address: address, errno: Errno.current.rawValue)
    }
  }

  /// Serves until `stop()`; returns when every worker has finished.
  package func run() {
    let group = DispatchGroup()
    for index in 0..<census.threads {
      group.enter()
      let thread = Thread { [self] in
        serve()
        group.leave()
      }
      thread.name = "fastcgi-\(index)"
      thread.start()
    }
    group.wait()
    Syscalls.close(listenSocket)
    Syscalls.close(stopPipe.read)
    if case .unixSocket(let path, _) = configuration.address { Syscalls.unlink(path) }
  }

  /// Stops accepting and wakes idle workers; requests in progress finish,
  /// and so does a request nginx has already sent on a kept connection.
  package func stop() {
    lock.lock()
    if stopping {
      lock.unlock()
      return
    }
    stopping = true
    lock.unlock()
    // shutdown() wakes threads blocked in accept() (close() would not) and
    // refuses new connections at once.
    Syscalls.shutdown(listenSocket)
    // Kept connections are left to the workers that hold them (see
    // `waitOnKeptConnection`): only the holder knows whether a request is
    // already on its way in.
    Syscalls.close(stopPipe.write)
  }

  /// The allow-list the workers check each TCP peer against, when there is
  /// one. libfcgi applies `FCGI_WEB_SERVER_ADDRS` itself, but closes a
  /// refused connection inside its accept without a word; the server
  /// accepts itself instead, so that it can say whom it refused.
  private var allowList: PeerAllowList? {
    if case .unixSocket = configuration.address { return nil }
    return configuration.allowedPeers
  }

  private func serve() {
    prepareThread()
    let allowList = allowList
    let request = LibFCGIRequest(listenSocket: allowList == nil ? listenSocket : -1)
    var activity = Activity.accepting
    while true {
      if request.connection >= 0 {
        _ = move(&activity, to: .holdingIdle)
        switch waitOnKeptConnection(request.connection, stopSignal: stopPipe.read) {
        case .request: break
        case .closed: request.closeConnection()
        case .stopping:
          request.closeConnection()
          return
        }
      }
      if request.connection < 0 {
        guard move(&activity, to: .accepting) else { return }
        if let allowList {
          do {
            let (connection, peer) = try Syscalls.acceptTCP(listenSocket)
            guard allowList.allows(peer) else {
              warnRefused(peer)
              Syscalls.close(connection)
              continue
            }
            request.adopt(connection)
          } catch {
            if !move(&activity, to: .busy) { return }
            log(.error, "accept failed: \(error.description)")
            Syscalls.sleep(microseconds: 10_000)  // e.g. EMFILE: do not spin
            continue
          }
        }
      } else {
        _ = move(&activity, to: .busy)
      }

      let accepted = request.accept()
      let failure = Errno.current
      // A connection of the server's own accepting that closed or spoke
      // wrongly before its request: libfcgi has closed it, and its own
      // accept, given no socket, failed rather than take an unchecked one.
      // The worker was never busy; it goes back to accepting.
      if !accepted, allowList != nil { continue }

      let stopRequested = !move(&activity, to: .busy)
      guard accepted else {
        if stopRequested { return }
        log(.error, "accept failed: \(failure.description)")
        Syscalls.sleep(microseconds: 10_000)  // e.g. EMFILE: do not spin
        continue
      }
      request.finish(keepConnection: answer(request))
    }
  }

  private var isStopping: Bool { lock.withLock { stopping } }

  /// The worker threads in all, and those reading or answering a request
  /// (`WorkerCensus`): what a metrics scrape reports.
  package var workers: (threads: Int, busy: Int) {
    lock.withLock { (census.threads, census.busy) }
  }

  private typealias Activity = WorkerCensus.Activity

  /// Records that a worker now does `new`; returns false when the server
  /// stops (a stopping worker does not start accepting).
  private func move(_ activity: inout Activity, to new: Activity) -> Bool {
    lock.lock()
    let running = !stopping
    if running || new != .accepting {
      census.move(from: activity, to: new)
      activity = new
    }
    let warning = running ? dueSaturationWarning() : nil
    lock.unlock()
    if let warning { log(.warning, warning) }
    return running
  }

  /// Logs that a connection from `peer` was refused, unless one was within
  /// the configuration's `refusalWarningInterval`.
  private func warnRefused(_ peer: IPv4Address) {
    let warning = lock.withLock { refusalWarnings.refused(peer, at: .now) }
    if let warning { log(.warning, warning) }
  }

  /// The warning that no worker is left accepting, when that holds and none
  /// was given within `saturationWarningInterval`. Called under `lock`.
  private func dueSaturationWarning() -> String? {
    guard census.isSaturated else { return nil }
    let now = ContinuousClock.now
    if let last = lastSaturationWarning, now - last < configuration.saturationWarningInterval {
      return nil
    }
    lastSaturationWarning = now
    return census.saturationWarning
  }

  /// Reads one request, calls the handler, writes its response. Returns
  /// whether the connection may be kept for nginx's next request: not when
  /// the body was left unread, the answer could not be written, or the
  /// server is stopping.
  private func answer(_ connection: LibFCGIRequest) -> Bool {
    var parameters: [String: String] = [:]
    parameters.reserveCapacity(32)
    connection.forEachParameter { entry in
      guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return }
      let name = String(decoding: UnsafeBufferPointer(rebasing: entry[..<equals]), as: UTF8.self)
      let value = String(
        decoding: UnsafeBufferPointer(rebasing: entry[(equals + 1)...]), as: UTF8.self)
      parameters[name] = value
    }
    let limit = configuration.bodyLimit(
      method: parameters["REQUEST_METHOD"],
      target: parameters["REQUEST_URI"] ?? parameters["DOCUMENT_URI"])
    let method = Request.method(parameters["REQUEST_METHOD"])
    var body: [UInt8] = []
    var tooLarge = false
    if let declared = parameters["CONTENT_LENGTH"].flatMap({ Int($0) }), declared > 0 {
      if declared > limit {
        tooLarge = true
      } else {
        _ = connection.readBody(into: &body, count: declared)
      }
    } else if method == .post || method == .put {
      // No length: read up to one byte past the cap to tell "too large".
      let read = connection.readBody(into: &body, count: limit + 1)
      if read > limit {
        body = []
        tooLarge = true
      }
    }
    // The body's end (an empty FCGI_STDIN record) may still be unread, even
    // after CONTENT_LENGTH bytes: left there, libfcgi's next accept on the
    // kept connection would read it as a request, refuse it and close the
    // connection under nginx's next request. A body over the cap is not read
    // at all, and its connection is not kept.
    let bodyComplete = !tooLarge && connection.skipToEndOfBody(atMost: limit)
    let request = Request(parameters: parameters, body: body, bodyTooLarge: tooLarge)
    let response = handler(request)
    let head = response.encodedHead()
    let sendsBody = request.method != .head && !response.body.isEmpty
    // Whether the connection is kept is decided before the answer goes out:
    // nginx may send its next request on it the moment it has the answer,
    // and a drain that starts after this is seen by the next accept on the
    // kept connection, which answers a request already sent.
    let keep = bodyComplete && !isStopping
    let sent = head.withUnsafeBytes { head in
      response.body.withUnsafeBytes { body in
        connection.respond(
          head: head, body: sendsBody ? body : UnsafeRawBufferPointer(start: nil, count: 0))
      }
    }
    return sent && keep
  }
}
