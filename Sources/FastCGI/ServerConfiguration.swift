import SystemPackage

/// Where and how the FastCGI server listens.
package struct ServerConfiguration: Sendable {
  /// The listening address.
  package enum Address: Sendable, Equatable {
    /// A Unix socket at `path`, created with mode 0660 (never world-writable:
    /// only nginx should reach it); `group`, when given, becomes its group so
    /// that nginx's workers, running as another user, can connect.
    case unixSocket(path: String, group: String? = nil)
    /// A TCP port on the loopback interface.
    case loopback(port: Int)
    /// A TCP port on one address of this host (`host` is an IPv4 address),
    /// for a balancing nginx on another host. Unless `host` is a loopback
    /// address, the server does not listen without `allowedPeers`.
    case tcp(host: String, port: Int)
  }

  /// The threads `scripts/backend-threads` gives for `scripts/settings.env`
  /// (nginx's 2 workers × 16 kept connections + 32 spare).
  package static let defaultThreads = 64
  /// nginx's `client_max_body_size 64k` (nginx.conf): a body nginx lets
  /// through is read whole.
  package static let defaultMaximumBodySize = 64 * 1024

  package var address: Address
  /// Worker threads, each blocked in its own accept. With nginx's
  /// `fastcgi_keep_conn`, a thread stays with an idle kept connection, so
  /// there must be more threads than nginx keeps idle connections, or the
  /// pool stalls.
  package var threads: Int
  /// Bodies longer than this are not read; the request arrives with
  /// `bodyTooLarge` set.
  package var maximumBodySize: Int
  /// Larger caps for the `POST`s of a few paths (the target up to its `?`,
  /// byte for byte as sent), e.g. a file upload's: every other request keeps
  /// `maximumBodySize`, so raising one address's cap reads no more of any
  /// other's body.
  package var largerBodies: [String: Int]
  /// The listen backlog.
  package var backlog: Int32
  /// The shortest time between two warnings that every thread is taken: the
  /// condition can hold for hours under a wrong configuration, and one line
  /// a minute says it without flooding the log.
  package var saturationWarningInterval: Duration
  /// The only peers a TCP address answers (ignored on a Unix socket, whose
  /// file's mode says who may connect); any other is closed at once and
  /// logged. A backend believes what its peer says of the client, so one
  /// that other machines can reach must answer only its nginx.
  package var allowedPeers: PeerAllowList?
  /// The shortest time between two warnings about refused peers (see
  /// `RefusalWarnings`).
  package var refusalWarningInterval: Duration

  package init(
    address: Address, threads: Int = defaultThreads, maximumBodySize: Int = defaultMaximumBodySize,
    largerBodies: [String: Int] = [:], backlog: Int32 = 1024,
    saturationWarningInterval: Duration = .seconds(60), allowedPeers: PeerAllowList? = nil,
    refusalWarningInterval: Duration = .seconds(10)
  ) {
    self.allowedPeers = allowedPeers
    self.refusalWarningInterval = refusalWarningInterval
    self.address = address
    self.threads = threads
    self.maximumBodySize = maximumBodySize
    self.largerBodies = largerBodies
    self.backlog = backlog
    self.saturationWarningInterval = saturationWarningInterval
  }
}

extension ServerConfiguration {
  /// The cap on the body of a request with `method` and `target` (path and
  /// query, as in `REQUEST_URI`): `largerBodies`' for a `POST` to one of
  /// its paths, `maximumBodySize` otherwise.
  package func bodyLimit(method: String?, target: String?) -> Int {
    guard !largerBodies.isEmpty, method == "POST", let target else { return maximumBodySize }
    let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
    return largerBodies[String(path)] ?? maximumBodySize
  }
}

/// The server could not start.
package enum ServerError: Error, Equatable, CustomStringConvertible {
  case libraryInit
  case cannotListen(address: String, errno: Int32)
  case cannotSetPermissions(path: String, errno: Int32)
  case unknownGroup(String)
  case cannotCreatePipe(errno: Int32)
  case noAllowList(address: String)

  package var description: String {
    switch self {
    case .libraryInit: "libfcgi failed to initialise"
    case .cannotListen(let address, let code): "cannot listen on \(address): \(describe(code))"
    case .cannotSetPermissions(let path, let code):
      "cannot set the permissions of \(path): \(describe(code))"
    case .unknownGroup(let name): "unknown group \(name)"
    case .cannotCreatePipe(let code): "cannot create the stop pipe: \(describe(code))"
    case .noAllowList(let address):
      "will not listen on \(address) without an allow-list: other machines could send requests"
    }
  }
}

private func describe(_ code: Int32) -> String { Errno(rawValue: code).description }
