#if canImport(Glibc)
  import Glibc
#endif

/// What ended a worker's wait on an idle kept connection.
enum KeptConnectionEvent: Equatable {
  /// nginx sent bytes of its next request: libfcgi's accept reads it.
  case request
  /// nginx closed the connection (or it failed).
  case closed
  /// The server stops and nothing was sent on the connection.
  case stopping
}

/// Waits until nginx uses `connection` again, closes it, or `stopSignal`
/// (the read end of a pipe whose write end `stop()` closes) turns readable.
///
/// The worker waits here rather than inside libfcgi's accept, so that a
/// stopping server never has to shut down a connection another thread
/// reads from: the worker itself sees the stop and, when a request is
/// already waiting, answers it first (nginx sent it before it could know).
func waitOnKeptConnection(_ connection: Int32, stopSignal: Int32) -> KeptConnectionEvent {
  var waits = [
    pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
    pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0),
  ]
  while true {
    if poll(&waits, 2, -1) < 0 {
      if errno == EINTR { continue }
      return .closed
    }
    if waits[0].revents != 0 {
      var byte: UInt8 = 0
      let peeked = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
      if peeked > 0 { return .request }
      if peeked == 0 || (errno != EAGAIN && errno != EINTR) { return .closed }
    }
    if waits[1].revents != 0 { return .stopping }
  }
}
