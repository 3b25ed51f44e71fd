/// What every worker thread is waiting on, so that the server can tell when
/// none is left to accept a new connection from nginx.
///
/// A thread that holds an idle kept connection waits on that connection
/// only: if nginx keeps more idle connections than the backend has threads,
/// or opens more under load, its next new connection sits in the listen
/// backlog while the backend has nothing to do. The census is what lets the
/// server say so instead of nginx timing out in silence.
struct WorkerCensus {
  /// One worker's state.
  enum Activity {
    /// In accept on the listening socket: ready for a new connection.
    case accepting
    /// Waiting for nginx's next request on a kept connection.
    case holdingIdle
    /// Reading, answering or finishing a request.
    case busy
  }

  let threads: Int
  /// Every worker starts by accepting; counting the ones not yet started as
  /// accepting keeps the start-up from looking like a saturated pool.
  private(set) var accepting: Int
  private(set) var holdingIdle = 0
  var busy: Int { threads - accepting - holdingIdle }

  init(threads: Int) {
    self.threads = threads
    accepting = threads
  }

  /// No thread is left to accept a new connection.
  var isSaturated: Bool { accepting == 0 }

  mutating func move(from old: Activity, to new: Activity) {
    guard old != new else { return }
    count(old, by: -1)
    count(new, by: 1)
  }

  private mutating func count(_ activity: Activity, by change: Int) {
    switch activity {
    case .accepting: accepting += change
    case .holdingIdle: holdingIdle += change
    case .busy: break
    }
  }

  /// The warning for an operator: what the threads do and what to change.
  var saturationWarning: String {
    "every one of the \(threads) FastCGI worker threads is taken (\(holdingIdle) holding an idle "
      + "kept connection from nginx, \(busy) answering), so a new connection from nginx waits "
      + "until one is free. Run with more threads than nginx can keep connections: --threads of "
      + "at least nginx's worker_processes × upstream keepalive + spare (README, \"Deploying "
      + "behind a system nginx\")."
  }
}
