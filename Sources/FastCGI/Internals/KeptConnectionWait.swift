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
  while true {
    guard let readable = Syscalls.waitUntilReadable(connection, stopSignal) else { return .closed }
    switch readable.connection {
    case .bytes: return .request
    case .hungUp:
      // A request sent before the close is still answered.
      switch Syscalls.peek(connection) {
      case .bytes: return .request
      case .closed: return .closed
      case .nothing: break
      }
    case .quiet: break
    }
    if readable.signal { return .stopping }
  }
}
