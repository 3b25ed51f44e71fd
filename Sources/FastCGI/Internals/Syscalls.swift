import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

// Every C library call of the FastCGI module, except libfcgi's own (those
// live in `LibFCGI.swift`), is in this file. The rest of the module speaks
// in file descriptors, `Signal`s and `Errno` codes, and never sees a C type.

/// The `errno` of a call that failed is swift-system's `Errno`, as in FileSystem: one
/// type for the whole package (its `description` is `strerror`'s sentence).
extension Errno {
  /// The calling thread's `errno` now: read it right after the call that failed.
  static var current: Errno { Errno(rawValue: errno) }
}

/// The signals the server handles itself.
enum Signal: Sendable {
  /// `SIGTERM`: stop, after answering what is already on its way.
  case terminate
  /// `SIGINT`: as `terminate`, from a terminal.
  case interrupt
  /// `SIGPIPE`: a write to a connection nginx closed.
  case brokenPipe
  /// `SIGUSR1`: meaningless here, and fatal to libfcgi's accept.
  case user1

  var number: Int32 {
    switch self {
    case .terminate: SIGTERM
    case .interrupt: SIGINT
    case .brokenPipe: SIGPIPE
    case .user1: SIGUSR1
    }
  }
}

/// Signals blocked in a thread, for one thread to take with `Syscalls.wait(for:)`.
struct BlockedSignals: @unchecked Sendable {
  // @unchecked: a `sigset_t` is a plain bit set, copied and never shared.
  fileprivate var set: sigset_t
}

enum Syscalls {
  // MARK: Signals

  /// Makes the process ignore `signal`. The corresponding C function is
  /// `signal` with `SIG_IGN`.
  static func ignore(_ signal: Signal) {
    _ = Glibc.signal(signal.number, SIG_IGN)
  }

  /// Blocks `signals` in the calling thread; threads it starts afterwards
  /// inherit the mask. The corresponding C function is `pthread_sigmask`.
  static func block(_ signals: [Signal]) -> BlockedSignals {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal.number) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    return BlockedSignals(set: set)
  }

  /// Waits until one of `signals` is pending and takes it; returns its
  /// number. The corresponding C function is `sigwait`.
  static func wait(for signals: BlockedSignals) -> Int32 {
    var set = signals.set
    var received: Int32 = 0
    sigwait(&set, &received)
    return received
  }

  // MARK: Descriptors

  /// A pipe whose ends are closed in child processes (`FD_CLOEXEC`). The
  /// corresponding C functions are `pipe` and `fcntl`.
  static func pipe() throws(Errno) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard Glibc.pipe(&ends) == 0 else { throw .current }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// The corresponding C function is `close`.
  static func close(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
  }

  /// A Unix socket listening at `path`, whose file has at most `mode`'s
  /// permissions from the moment `bind` makes it: Linux gives the file the
  /// socket's own mode, set before, less the umask's bits. The corresponding
  /// C functions are `socket`, `fchmod`, `bind` and `listen`.
  static func listenOnUnixSocket(_ path: String, mode: UInt32, backlog: Int32) throws(Errno)
    -> Int32
  {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name = Array(path.utf8)
    // The name and its terminating zero must fit.
    guard name.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw Errno(rawValue: ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
    let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw .current }
    let failure = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Errno? in
        guard fchmod(socket, mode_t(mode)) == 0,
          bind(socket, address, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0,
          Glibc.listen(socket, backlog) == 0
        else { return .current }
        return nil
      }
    }
    if let failure {
      _ = Glibc.close(socket)
      throw failure
    }
    return socket
  }

  /// Accepts a connection on a TCP listening socket and returns it with its
  /// peer's address, with Nagle's algorithm off as libfcgi's own accept
  /// sets it (a reply goes out whole; nothing waits for an answer to it).
  /// Connections aborted before they were taken are skipped, and a signal
  /// does not end the wait. The corresponding C functions are `accept` and
  /// `setsockopt`.
  static func acceptTCP(_ socket: Int32) throws(Errno) -> (connection: Int32, peer: IPv4Address) {
    while true {
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.accept(socket, $0, &length)
        }
      }
      guard connection >= 0 else {
        let failure = Errno.current
        if [EINTR, ECONNABORTED, EPROTO].contains(failure.rawValue) { continue }
        throw failure
      }
      var on: Int32 = 1
      _ = setsockopt(
        connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
      return (connection, IPv4Address(value: UInt32(bigEndian: address.sin_addr.s_addr)))
    }
  }

  /// Shuts a socket down for reading and writing: a thread blocked in
  /// `accept` or `read` on it returns. The corresponding C function is
  /// `shutdown` with `SHUT_RDWR`.
  static func shutdown(_ socket: Int32) {
    _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
  }

  /// Writes every byte of `pieces`, in order, to `descriptor`: in one call
  /// when the socket takes them all (at most 1,024 pieces a call), again
  /// for what a call left, and through interruptions by signals. The
  /// pieces are moved on past what was written. False when a write failed
  /// (the peer gone: `EPIPE`, as SIGPIPE is ignored). The corresponding C
  /// function is `writev`.
  static func writeAll(_ descriptor: Int32, _ pieces: UnsafeMutableBufferPointer<iovec>) -> Bool {
    var index = 0
    while index < pieces.count {
      let count = min(pieces.count - index, 1_024)
      let written = Glibc.writev(descriptor, pieces.baseAddress! + index, Int32(count))
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      var left = written
      while left > 0 {
        if left >= pieces[index].iov_len {
          left -= pieces[index].iov_len
          index += 1
        } else {
          pieces[index].iov_base += left
          pieces[index].iov_len -= left
          left = 0
        }
      }
    }
    return true
  }

  /// What `poll` saw on a kept connection.
  enum Readiness: Equatable {
    /// Nothing: the wait ended for the other descriptor.
    case quiet
    /// Bytes wait, and the peer has neither closed nor failed.
    case bytes
    /// The peer closed its end or the socket failed; bytes may wait too.
    case hungUp
  }

  /// Linux's "peer closed its writing end" poll event (`<poll.h>` defines
  /// it only under `_GNU_SOURCE`, which the Glibc module does not see).
  private static let peerClosed: Int16 = 0x2000

  /// Waits until `connection` or `signal` can be read without blocking (or
  /// is closed or failed), through interruptions by signals. Returns what
  /// was seen on each, or nil when the wait itself failed. The
  /// corresponding C function is `poll`.
  ///
  /// `.bytes` needs no second look: asking for the peer's close too tells a
  /// request from a hang-up in the same call, which saves each request on a
  /// kept connection a `recv` that peeked to tell them apart.
  static func waitUntilReadable(_ connection: Int32, _ signal: Int32) -> (
    connection: Readiness, signal: Bool
  )? {
    withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { waits in
      waits[0] = pollfd(fd: connection, events: Int16(POLLIN) | peerClosed, revents: 0)
      waits[1] = pollfd(fd: signal, events: Int16(POLLIN), revents: 0)
      while poll(waits.baseAddress, 2, -1) < 0 {
        if errno != EINTR { return nil }
      }
      let seen = waits[0].revents
      let readiness: Readiness =
        seen == 0 ? .quiet : seen == Int16(POLLIN) ? .bytes : .hungUp
      return (readiness, waits[1].revents != 0)
    }
  }

  /// What a socket holds, looked at without reading it.
  enum Peek {
    /// At least one byte waits.
    case bytes
    /// The peer closed its end, or the socket failed.
    case closed
    /// Nothing yet (the wake-up was spurious, or a signal interrupted).
    case nothing
  }

  /// Looks at the next byte of `socket` without taking it and without
  /// blocking. The corresponding C function is `recv` with `MSG_PEEK` and
  /// `MSG_DONTWAIT`.
  static func peek(_ socket: Int32) -> Peek {
    var byte: UInt8 = 0
    let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    if peeked > 0 { return .bytes }
    if peeked == 0 || (errno != EAGAIN && errno != EINTR) { return .closed }
    return .nothing
  }

  // MARK: Files

  /// Removes a file; a missing one is no error. The corresponding C
  /// function is `unlink`.
  static func unlink(_ path: String) {
    _ = Glibc.unlink(path)
  }

  /// The id of the group called `name`, or nil when there is none. The
  /// corresponding C function is `getgrnam`.
  static func groupID(named name: String) -> UInt32? {
    getgrnam(name).map { UInt32($0.pointee.gr_gid) }
  }

  /// Gives `path` to this process's user and the group `group`. The
  /// corresponding C function is `chown`.
  static func changeOwner(_ path: String, group: UInt32) throws(Errno) {
    guard chown(path, getuid(), gid_t(group)) == 0 else { throw .current }
  }

  /// The corresponding C function is `chmod`.
  static func changeMode(_ path: String, _ mode: UInt32) throws(Errno) {
    guard chmod(path, mode_t(mode)) == 0 else { throw .current }
  }

  // MARK: Odds and ends

  /// The length of a NUL-terminated string. The corresponding C function
  /// is `strlen`.
  static func length(ofCString string: UnsafePointer<CChar>) -> Int {
    strlen(string)
  }

  /// Suspends the calling thread. The corresponding C function is `usleep`.
  static func sleep(microseconds: UInt32) {
    _ = usleep(microseconds)
  }
}
