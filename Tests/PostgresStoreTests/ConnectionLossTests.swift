import Documents
import FileSystem
import Foundation
import Logging
import PostgresStore
import Preferences
import ServiceMetrics
import TestSupport
import Testing

/// A connection found lost before anything was sent on it (a read, or the
/// start of a lock) is made again and the operation tried once more; one
/// the server closed is seen before a conditional replace is sent; one
/// lost under a write or inside a lock fails that operation (as
/// unavailable: the web layer answers 503), and the next reconnects.
@Suite("PostgresDocuments when the connection is lost")
struct ConnectionLossTests {
  let root = "/srv/checklists-\(UUID().uuidString)/data"

  @Test func aTerminatedBackendIsReplacedUnderReadsAndLocks() throws {
    let postgres = try TemporaryPostgres.shared()
    let conninfo = try postgres.createDatabase()
    let database = try #require(conninfo.split(separator: "=").last.map(String.init))
    let store = PostgresDocuments(conninfo: conninfo, root: root, logger: Logger(label: "test"))
    let path = root + "/users/ab/key1/Checklists.plist"
    try store.write(Data("before".utf8), to: path, durable: true)
    let identity = try store.identity(of: path)
    let terminate =
      "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '\(database)'"

    let counters = ServiceCounters.shared
    let reconnects = counters.value(of: .databaseReconnect)
    let reads = counters.value(of: .databaseRead)
    try postgres.sql(terminate)
    #expect(try store.identity(of: path) == identity)
    #expect(try store.read(path) == Data("before".utf8))
    #expect(counters.value(of: .databaseReconnect) > reconnects, "the new connection is counted")
    #expect(counters.value(of: .databaseRead) >= reads + 2)
    try store.withLock(root + "/users/ab/key1/.lock") {
      try store.write(Data("after".utf8), to: path, durable: true)
    }
    #expect(try store.read(path) == Data("after".utf8))

    // A write on its own is not sent again: it may have been committed.
    try postgres.sql(terminate)
    let failure = #expect(throws: DocumentError.self) {
      try store.write(Data("unsure".utf8), to: path, durable: true)
    }
    #expect(failure?.isUnavailable == true, "\(String(describing: failure))")
    #expect(failure?.operation.hasPrefix("PostgreSQL ") == true)
    try store.write(Data("sure".utf8), to: path, durable: true)
    #expect(try store.read(path) == Data("sure".utf8))
  }

  @Test func aConnectionLostInsideALockFailsItAndTheNextReconnects() throws {
    let postgres = try TemporaryPostgres.shared()
    let conninfo = try postgres.createDatabase()
    let database = try #require(conninfo.split(separator: "=").last.map(String.init))
    let store = PostgresDocuments(conninfo: conninfo, root: root, logger: Logger(label: "test"))
    let path = root + "/users/ab/key1/Checklists.plist"
    try store.write(Data("before".utf8), to: path, durable: true)
    let failure = #expect(throws: DocumentError.self) {
      try store.withLock(root + "/users/ab/key1/.lock") {
        try store.write(Data("lost".utf8), to: path, durable: true)
        try postgres.sql(
          "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '\(database)'"
            + " AND pid <> pg_backend_pid()")
        try store.write(Data("lost too".utf8), to: path, durable: true)
      }
    }
    #expect(failure?.isUnavailable == true, "\(String(describing: failure))")
    #expect(try store.read(path) == Data("before".utf8))
  }

  @Test func aRestartedServerIsReconnectedTo() throws {
    let postgres = try TemporaryPostgres()  // its own: a restart cuts every connection
    defer { postgres.stop() }
    let store = PostgresDocuments(
      conninfo: try postgres.createDatabase(), root: root, logger: Logger(label: "test"))
    let path = root + "/users/ab/key1/Checklists.plist"
    try store.write(Data("acknowledged".utf8), to: path, durable: true)
    #expect(try store.read(path) == Data("acknowledged".utf8))
    let acknowledged = try #require(try store.identity(of: path))
    let before = postgres.pid
    try postgres.restartImmediate()
    #expect(postgres.pid != before)
    // The thread's connection, closed by the restart, is seen closed
    // before the conditional replace is sent on it (never sent twice).
    let replaced = try store.replace(
      Data("replaced".utf8), at: path, ifStill: acknowledged,
      lockPath: root + "/users/ab/key1/.lock", timeout: .seconds(5), durable: true)
    if case .written = replaced {} else { Issue.record("not written: \(replaced)") }
    #expect(try store.read(path) == Data("replaced".utf8))
    try store.write(Data("acknowledged".utf8), to: path, durable: true)
    #expect(try store.read(path) == Data("acknowledged".utf8))
    try store.withLock(root + "/users/ab/key1/.lock") {
      try store.write(Data("after the restart".utf8), to: path, durable: true)
    }
    #expect(try store.read(path) == Data("after the restart".utf8))
  }

  @Test func anUnreachableServerIsUnavailable() throws {
    let directory = TemporaryDirectory("no-postgres")
    let store = PostgresDocuments(
      conninfo: "host=\(directory.path) port=5432 user=postgres dbname=none", root: root,
      logger: Logger(label: "test"))
    let failure = #expect(throws: DocumentError.self) { try store.read(root + "/a/b") }
    #expect(failure?.isUnavailable == true, "\(String(describing: failure))")
    #expect(store.identity(ofDirectory: root + "/a") == nil)
    #expect(store.entries(ofDirectory: root).isEmpty)
    let preparing = #expect(throws: DocumentError.self) { try store.prepareThread() }
    #expect(preparing?.isUnavailable == true, "a thread's start is told, not hung")
  }

  /// A visitor's preferences out of reach are not a damaged file: the
  /// request is refused as unavailable (503), never run on the defaults
  /// with the "could not be read" page (500).
  @Test func preferencesOutOfReachAreUnavailableNotDamaged() throws {
    let postgres = try TemporaryPostgres()  // its own: it is stopped
    let store = PostgresDocuments(
      conninfo: try postgres.createDatabase(), root: root, logger: Logger(label: "test"))
    let defaults = Defaults(logger: Logger(label: "test"), documents: store)
    let directory = root + "/users/ab/key1"
    try defaults.setPersistentDomain(["sort": "name"], forName: directory)
    postgres.stop()

    let scope = defaults.visitor(directory: directory)
    let failure = #expect(throws: PreferencesError.self) { try scope.requireReachable() }
    guard case .unavailable = failure else {
      Issue.record("expected .unavailable, got \(String(describing: failure))")
      return
    }
    #expect(defaults.visitor(directory: directory).loadProblem != nil)
  }

  @Test func aPreparedThreadConnectsAndMakesTheSchema() throws {
    let store = PostgresDocuments(
      conninfo: try TemporaryPostgres.shared().createDatabase(), root: root,
      logger: Logger(label: "test"))
    try store.prepareThread()
    try store.prepareThread()  // again: nothing more to do
    let path = root + "/users/ab/key1/Checklists.plist"
    try store.write(Data("after".utf8), to: path, durable: true)
    #expect(try store.read(path) == Data("after".utf8))
  }

  @Test func aPathOutsideTheDataDirectoryIsRefused() throws {
    let store = PostgresDocuments(
      conninfo: try TemporaryPostgres.shared().createDatabase(), root: root,
      logger: Logger(label: "test"))
    let failure = #expect(throws: DocumentError.self) { try store.read("/etc/passwd") }
    #expect(failure?.reason == .invalidPath)
  }
}
