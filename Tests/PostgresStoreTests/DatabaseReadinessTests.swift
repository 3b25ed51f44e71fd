import Testing

@testable import PostgresStore

/// The gate of new connections, driven by events without a server: the
/// first failure starts an outage (reported once), then one try at a time
/// after a growing delay while every other is turned away at once, and the
/// first success ends it (reported once, with how many were turned away).
@Suite("DatabaseReadiness")
struct DatabaseReadinessTests {
  final class FakeClock: @unchecked Sendable {
    var now = ContinuousClock.now
  }

  final class Reports: @unchecked Sendable {
    var transitions: [DatabaseReadiness.Transition] = []
  }

  let refused = PostgresFailure(
    sqlState: nil, message: "connection refused", connectionLost: true)

  @Test func anOutageIsReportedOnceAndTriedAgainWithBackOff() {
    let clock = FakeClock()
    let reports = Reports()
    let readiness = DatabaseReadiness(
      now: { clock.now }, report: { reports.transitions.append($0) })
    var attempts = 0
    let fail = { () throws(PostgresFailure) in
      attempts += 1
      throw refused
    }
    #expect(readiness.isReady)
    #expect(throws: PostgresFailure.self) { try readiness.connecting(fail) }
    #expect(!readiness.isReady)
    #expect(reports.transitions == [.down(reason: "connection refused")])
    // Within the first delay, nobody tries: 100 requests cost no connect.
    for _ in 0..<100 {
      #expect(throws: PostgresFailure.self) { try readiness.connecting(fail) }
    }
    #expect(attempts == 1)
    // The delays double up to 2 s, one try each.
    var waited: [Duration] = []
    var delay = DatabaseReadiness.firstDelay
    for _ in 0..<7 {
      clock.now += delay - .milliseconds(1)
      #expect(throws: PostgresFailure.self) { try readiness.connecting(fail) }
      let before = attempts
      clock.now += .milliseconds(1)
      #expect(throws: PostgresFailure.self) { try readiness.connecting(fail) }
      #expect(attempts == before + 1)
      waited.append(delay)
      delay = min(delay * 2, DatabaseReadiness.longestDelay)
    }
    #expect(waited.last == .seconds(2))
    #expect(reports.transitions.count == 1, "one line for the whole outage")

    clock.now += .seconds(2)
    try? readiness.connecting {}
    #expect(readiness.isReady)
    #expect(reports.transitions.count == 2)
    guard case .back(_, let turnedAway) = reports.transitions.last else {
      Issue.record("no report of the database's return")
      return
    }
    #expect(turnedAway == 100 + 7)
    // Back to normal: every connect is tried.
    try? readiness.connecting {}
    #expect(reports.transitions.count == 2)
  }

  @Test func whileOneThreadTriesTheOthersAreTurnedAway() {
    let clock = FakeClock()
    let readiness = DatabaseReadiness(now: { clock.now }, report: { _ in })
    #expect(throws: PostgresFailure.self) {
      try readiness.connecting { () throws(PostgresFailure) in throw refused }
    }
    clock.now += .seconds(1)
    var inner: Bool?
    try? readiness.connecting {
      // Another thread asking now, while this one connects.
      inner = (try? readiness.connecting {}) != nil
    }
    #expect(inner == false)
    #expect(readiness.isReady)
  }
}
