import FastCGI
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The plain HTTP listener of `serve --metrics`: one thread of its own,
/// one connection at a time, each answered and closed (`MetricsHTTP`).
///
/// A scraper asks every few seconds and reads a few kilobytes, so one
/// thread is plenty; a client that sends slowly or not at all holds it for
/// at most `readTimeout`, and one that is not on the allow-list is closed
/// without an answer.
package final class MetricsListener: @unchecked Sendable {
  // @unchecked: `socket` is written once, in `init`, before the thread starts;
  // `stop` only shuts it down.
  /// How long a connection may take to send its request.
  package static let readTimeout: Duration = .seconds(2)

  private let socket: Int32
  /// The port listened on (the one asked for, or the one given for 0).
  package let port: Int
  private let allowed: PeerAllowList?
  private let export: MetricsExport
  private let refused: @Sendable (IPv4Address) -> Void

  /// Where it failed to listen, with `errno`'s text.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  /// Listens on `host:port` (IPv4) at once; `start` serves.
  ///
  /// - Parameters:
  ///   - allowed: the only peers answered; nil answers any (a loopback
  ///     address only: the caller checks).
  ///   - refused: told of each peer closed unanswered.
  package init(
    host: IPv4Address, port: Int, allowed: PeerAllowList?, export: MetricsExport,
    refused: @escaping @Sendable (IPv4Address) -> Void = { _ in }
  ) throws(Failure) {
    self.allowed = allowed
    self.export = export
    self.refused = refused
    let made = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard made >= 0 else { throw Failure(description: "socket: \(Self.errorText())") }
    var yes: Int32 = 1
    setsockopt(made, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = host.value.bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, Glibc.listen(made, 16) == 0 else {
      let text = Self.errorText()
      close(made)
      throw Failure(description: "cannot listen on \(host):\(port): \(text)")
    }
    var listened = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &listened) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(made, $0, &length) }
    }
    self.port = Int(UInt16(bigEndian: listened.sin_port))
    socket = made
  }

  /// Serves on a thread of its own until `stop`.
  package func start() {
    let thread = Thread { [self] in serve() }
    thread.name = "metrics"
    thread.start()
  }

  /// Stops accepting (the thread ends after the connection in hand).
  package func stop() {
    shutdown(socket, Int32(SHUT_RDWR))
  }

  private func serve() {
    while true {
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept(socket, $0, &length)
        }
      }
      if connection < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        break  // shut down by `stop`, or the socket is unusable
      }
      let address = IPv4Address(value: UInt32(bigEndian: peer.sin_addr.s_addr))
      if let allowed, !allowed.allows(address) {
        refused(address)
      } else {
        answer(connection)
      }
      close(connection)
    }
    close(socket)
  }

  /// Reads the request's head within `readTimeout`, then writes the answer.
  private func answer(_ connection: Int32) {
    let deadline = ContinuousClock.now + Self.readTimeout
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 2048)
    while MetricsHTTP.headLength(received) == nil, received.count < MetricsHTTP.maximumHeadBytes {
      let left = deadline - .now
      guard left > .zero, Self.setTimeout(connection, SO_RCVTIMEO, left) else { break }
      let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      received += chunk[..<count]
    }
    let reply = MetricsHTTP.answer(MetricsHTTP.verdict(for: received)) { export.text() }
    _ = Self.setTimeout(connection, SO_SNDTIMEO, Self.readTimeout)
    var sent = 0
    while sent < reply.count {
      let count = reply[sent...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return }
      sent += count
    }
    shutdown(connection, Int32(SHUT_WR))
    // What the peer sent beyond the head (a refused one's rest) is read
    // and dropped for a moment: closed with it unread, the connection would
    // be reset, and the peer could lose the answer.
    guard Self.setTimeout(connection, SO_RCVTIMEO, .milliseconds(100)) else { return }
    for _ in 0..<32 {
      let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return }
    }
  }

  private static func setTimeout(_ connection: Int32, _ option: Int32, _ duration: Duration)
    -> Bool
  {
    let (seconds, attoseconds) = duration.components
    var value = timeval(
      tv_sec: Int(seconds), tv_usec: max(1, Int(attoseconds / 1_000_000_000_000)))
    return setsockopt(connection, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
      == 0
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
