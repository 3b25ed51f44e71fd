import Support

/// Whether this host finds the database answering, and when it may try to
/// connect again while it does not: the gate every new connection of a
/// `PostgresDocuments` passes.
///
/// While the database answers, every thread connects when it needs to.
/// Once a connection cannot be made, one thread at a time tries again,
/// after 100 ms, then twice as long each time up to 2 s; every other
/// thread fails at once, without waiting up to `connect_timeout` for a
/// host that may be gone, so a request is answered `503` in microseconds
/// and 128 threads × hosts do not knock on a database that is starting.
/// Each change of state is reported once (`report`): the log gets one line
/// when the database goes away and one when it is back, however many
/// requests met the outage.
final class DatabaseReadiness: Sendable {
  /// A change of state, as reported.
  enum Transition: Equatable, Sendable {
    /// A connection could not be made (libpq's or the server's reason).
    case down(reason: String)
    /// A connection was made again after `refused` operations were
    /// turned away at the gate.
    case back(after: Duration, refused: Int)
  }

  static let firstDelay = Duration.milliseconds(100)
  static let longestDelay = Duration.seconds(2)

  private struct Outage {
    var since: ContinuousClock.Instant
    var nextTry: ContinuousClock.Instant
    var delay: Duration
    /// A thread is trying to connect now: the others do not wait for it.
    var trying = false
    var refused = 0
    var reason: String
  }

  /// Nil while the database answers.
  private let outage = LockedValue<Outage?>(nil)
  private let now: @Sendable () -> ContinuousClock.Instant
  private let report: @Sendable (Transition) -> Void

  init(
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    report: @escaping @Sendable (Transition) -> Void
  ) {
    self.now = now
    self.report = report
  }

  /// False from the first connection that could not be made until one is.
  var isReady: Bool { outage.withLock { $0 == nil } }

  /// Runs `connect` unless the database was found away and it is not yet
  /// time (or another thread's turn) to try again; then throws at once.
  /// A failure of `connect` that lost the connection starts or prolongs
  /// the outage; a success ends it.
  func connecting(_ connect: () throws(PostgresFailure) -> Void) throws(PostgresFailure) {
    let turnedAway: String? = outage.withLock { outage in
      guard var current = outage else { return nil }
      let instant = now()
      guard !current.trying, instant >= current.nextTry else {
        current.refused += 1
        outage = current
        return current.reason
      }
      current.trying = true
      outage = current
      return nil
    }
    if let turnedAway {
      throw PostgresFailure(
        sqlState: nil, message: "the database is not answering (\(turnedAway))",
        connectionLost: true)
    }
    do {
      try connect()
    } catch {
      failed(error)
      throw error
    }
    succeeded()
  }

  private func failed(_ failure: PostgresFailure) {
    let instant = now()
    let began: Bool = outage.withLock { outage in
      guard var current = outage else {
        outage = Outage(
          since: instant, nextTry: instant + Self.firstDelay, delay: Self.firstDelay,
          reason: failure.message)
        return true
      }
      current.delay = min(current.delay * 2, Self.longestDelay)
      current.nextTry = instant + current.delay
      current.trying = false
      current.reason = failure.message
      outage = current
      return false
    }
    if began { report(.down(reason: failure.message)) }
  }

  private func succeeded() {
    let instant = now()
    let ended: Outage? = outage.withLock { outage in
      defer { outage = nil }
      return outage
    }
    if let ended { report(.back(after: instant - ended.since, refused: ended.refused)) }
  }
}
