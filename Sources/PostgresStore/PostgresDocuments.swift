import Documents
import Foundation
import Logging
import ServiceMetrics
import Support

/// Documents in a PostgreSQL database, which several hosts share: the same
/// names (paths in the data directory, kept relative to `root`) and the same
/// bytes as `LocalDocuments`, one row each in `documents`, with a version
/// per owner's directory in `directories` (see `DocumentStatements`).
///
/// Each thread has its own connection (made on its first operation, made
/// again on the operation after one was lost). A lock is a transaction on
/// that connection holding an advisory lock named by the lock's path: what
/// the lock's body reads and writes on the same thread is inside it, and is
/// acknowledged when it commits. Outside a lock each write is one
/// autocommitted statement. `durable` is always so: the server's
/// `synchronous_commit` decides, and it is on unless someone turned it off.
///
/// Every failure is a `DocumentError`; one whose `isUnavailable` is true
/// means the server could not be reached (the request may be retried).
package final class PostgresDocuments: DocumentStore {
  /// The libpq connection string or URI
  /// (`postgresql:///checklists?host=/run/postgresql`).
  package let conninfo: String
  /// The data directory the paths are under (`/srv/checklists/data`).
  package let root: String
  private let logger: Logger
  private let schemaReady = LockedValue(false)
  /// Whether the database answers; the gate of every new connection.
  private let readiness: DatabaseReadiness
  /// Reads shared by threads asking at the same time (see `ReadRounds`),
  /// each kind sent on a connection of its own.
  private let directoryVersions: SharedRead<String, Data>
  private let identities: SharedRead<DocumentPath, DocumentVersion>
  private let snapshots: SharedRead<DocumentPath, DocumentSnapshot>

  /// - Parameters:
  ///   - conninfo: a libpq connection string or URI. Nothing connects
  ///     until the first operation.
  ///   - root: the data directory every path given is under.
  package init(conninfo: String, root: String, logger: Logger) {
    self.conninfo = conninfo
    var root = root
    while root.count > 1, root.hasSuffix("/") { root.removeLast() }
    self.root = root
    self.logger = logger
    readiness = DatabaseReadiness { transition in
      switch transition {
      case .down(let reason):
        logger.warning(
          "PostgreSQL: the database is not answering (\(reason)); requests get 503 and /health says not ready until it does, tried again every \(DatabaseReadiness.longestDelay) at most"
        )
      case .back(let duration, let refused):
        logger.notice(
          "PostgreSQL: the database answers again, after \(String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)) s (\(refused) operations refused meanwhile)"
        )
      }
    }
    directoryVersions = SharedRead(conninfo, readiness: readiness)
    identities = SharedRead(conninfo, readiness: readiness)
    snapshots = SharedRead(conninfo, readiness: readiness)
  }

  /// True while the database answers, as far as this host knows: a
  /// connection of this thread that the server closed since its last use
  /// (a restart, a shutdown) is made again first, and while the database
  /// was found away this thread's old connection proves nothing, so it is
  /// made again too; both through the gate, so at most once per back-off
  /// step however often this is asked. What `/health` says; one `poll`
  /// when all is well.
  package func isReady() -> Bool {
    guard let connection = try? PostgresConnection.current(conninfo, readiness: readiness) else {
      return false
    }
    if readiness.isReady {
      if !connection.closeIfClosedByServer() { return true }
    } else if connection.transactionDepth == 0 {
      connection.disconnect()
    }
    return (try? self.connection(for: root)) != nil
  }

  /// Connects on this thread and makes the tables unless they exist
  /// (what every operation does first); for a server that checks at
  /// startup that the database is there.
  package func prepareSchema() throws(DocumentError) {
    _ = try connection(for: root)
  }

  /// Connects this thread (its one connection, with its prepared
  /// statements): with 128 threads connecting on their first requests
  /// instead, those requests waited up to 1.3 s on 2 cores under load.
  package func prepareThread() throws(DocumentError) {
    try prepareSchema()
  }

  // MARK: Reading

  /// Outside a lock, threads asking at the same time share one statement
  /// (`ReadRounds`); inside one, the thread's transaction reads its own.
  package func identity(of path: String) throws(DocumentError) -> DocumentVersion? {
    ServiceCounters.shared.count(.databaseRead)
    let document = try DocumentPath(path, root: root)
    if try sharesReads(path) {
      return try identities.value(for: document) { (wanted, connection) throws(DocumentError) in
        try readMany(DocumentStatements.identities, wanted, on: connection) { row in
          Self.identity(version: row[2], size: Self.bigEndian(row[3]), written: row[4])
        }
      }
    }
    let rows = try execute(
      DocumentStatements.identity, [document.directory, document.name], path: path,
      doing: "identity")
    guard let row = rows.first else { return nil }
    return Self.identity(version: row[0], size: Self.bigEndian(row[1]), written: row[2])
  }

  /// Shares reads with other threads as `identity(of:)` does.
  package func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot? {
    ServiceCounters.shared.count(.databaseRead)
    let document = try DocumentPath(path, root: root)
    if try sharesReads(path) {
      return try snapshots.value(for: document) { (wanted, connection) throws(DocumentError) in
        try readMany(DocumentStatements.snapshots, wanted, on: connection) { row in
          let bytes = row[2] ?? Data()
          return DocumentSnapshot(
            contents: bytes,
            version: Self.identity(version: row[3], size: Int64(bytes.count), written: row[4]))
        }
      }
    }
    let rows = try execute(
      DocumentStatements.snapshot, [document.directory, document.name], path: path,
      doing: "read")
    guard let row = rows.first, let bytes = row[0] else { return nil }
    let identity = Self.identity(version: row[1], size: Int64(bytes.count), written: row[2])
    return DocumentSnapshot(contents: bytes, version: identity)
  }

  /// True outside a lock on this thread: what it reads then may be read in
  /// another thread's statement. Inside one it must be read in its own
  /// transaction, which sees its own writes.
  private func sharesReads(_ path: String) throws(DocumentError) -> Bool {
    try connection(for: path).transactionDepth == 0
  }

  /// One statement of `ReadRounds` for documents: `statement` given the
  /// directories and names as two arrays, each row made a value by `value`.
  private func readMany<Value>(
    _ statement: PreparedStatement, _ documents: [DocumentPath], on connection: RoundConnection,
    value: ([Data?]) -> Value
  ) throws(DocumentError) -> [DocumentPath: Value] {
    let rows = try connection.execute(
      statement,
      [
        DocumentStatements.arrayLiteral(documents.lazy.map(\.directory)),
        DocumentStatements.arrayLiteral(documents.lazy.map(\.name)),
      ], path: root)
    var values: [DocumentPath: Value] = [:]
    for row in rows {
      guard let directory = row[0], let name = row[1] else { continue }
      let document = DocumentPath(
        directory: String(decoding: directory, as: UTF8.self),
        name: String(decoding: name, as: UTF8.self))
      values[document] = value(row)
    }
    return values
  }

  // MARK: Writing

  /// One statement, which returns the version it gave: no second read.
  @discardableResult
  package func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    ServiceCounters.shared.count(.databaseWrite)
    let document = try DocumentPath(path, root: root)
    let rows = try execute(
      DocumentStatements.write, [document.directory, document.name, bytes], path: path,
      doing: "write")
    guard let row = rows.first else {
      throw DocumentError(
        operation: "PostgreSQL write", path: path, reason: .failed, detail: "no version returned")
    }
    return Self.identity(version: row[0], size: Int64(bytes.count), written: row[1])
  }

  /// As `write`: the database reuses space by itself.
  @discardableResult
  package func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    try write(bytes, to: path, durable: durable)
  }

  /// One round trip: the lock taken, the version checked and the
  /// document written (or, when another version replaced it, that version
  /// read) in one transaction, committed at once (a lock's body took four:
  /// begin and lock, read the version, write, commit). Inside a lock of
  /// this thread, a `withLock` body in its transaction.
  package func replace(
    _ bytes: Data, at path: String, ifStill expected: DocumentVersion, lockPath: String,
    timeout: Duration, durable: Bool
  ) throws -> ConditionalReplace {
    ServiceCounters.shared.count(.databaseWrite)
    let document = try DocumentPath(path, root: root)
    let lock = try DocumentPath(lockPath, root: root)
    var connection = try connection(for: lockPath)
    guard connection.transactionDepth == 0 else {
      return try replaceHoldingLock(
        bytes, at: path, ifStill: expected, lockPath: lockPath, timeout: timeout, durable: durable)
    }
    // Never sent twice: had the server received it before the connection
    // was lost, a second try would find its own version and say another
    // replaced it. A connection the server closed is seen before sending.
    if connection.closeIfClosedByServer() { connection = try self.connection(for: lockPath) }
    let milliseconds = "\(max(1, Int(timeout / .milliseconds(1))))ms"
    let expectedVersion = withUnsafeBytes(of: expected.number.bigEndian) { Data($0) }
    return try DocumentLock.admitting(lockPath) { () throws -> ConditionalReplace in
      let rows: [[Data?]]
      do {
        rows = try connection.pipeline([
          (DocumentStatements.lock, [Data(lock.relativePath.utf8), Data(milliseconds.utf8)]),
          (
            DocumentStatements.replaceIfVersion,
            [Data(document.directory.utf8), Data(document.name.utf8), bytes, expectedVersion]
          ),
        ])
      } catch {
        throw lockFailure(error, path: path)
      }
      guard let row = rows.first else { return .replaced(by: nil) }
      if row[0] == Data([1]) {
        return .written(
          Self.identity(version: row[1], size: Int64(bytes.count), written: row[3]))
      }
      let current = row[2] ?? Data()
      return .replaced(
        by: DocumentSnapshot(
          contents: current,
          version: Self.identity(version: row[1], size: Int64(current.count), written: row[3])))
    }
  }

  package func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool {
    ServiceCounters.shared.count(.databaseWrite)
    let document = try DocumentPath(path, root: root)
    let rows = try execute(
      DocumentStatements.create, [document.directory, document.name, bytes], path: path,
      doing: "create")
    return !rows.isEmpty
  }

  package func remove(_ path: String, durable: Bool) throws(DocumentError) {
    ServiceCounters.shared.count(.databaseWrite)
    let document = try DocumentPath(path, root: root)
    _ = try execute(
      DocumentStatements.remove, [document.directory, document.name], path: path,
      doing: "remove")
  }

  /// Nothing to make: a directory's row comes with its first document.
  package func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError) {
    _ = try DocumentPath.relative(directory, root: root)
  }

  /// Renames the document to `<name>.corrupt-<UTC time>` (with `-2`, `-3` …
  /// when that is taken), as `LocalDocuments` does with a file (`AsideName`).
  package func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String {
    ServiceCounters.shared.count(.databaseWrite)
    let document = try DocumentPath(path, root: root)
    let taken = Set(
      try execute(
        DocumentStatements.namesStarting, [document.directory, "\(document.name).corrupt-"],
        path: path, doing: "set aside"
      ).compactMap { $0[0].map { String(decoding: $0, as: UTF8.self) } })
    let target = AsideName.for(document.name) { taken.contains($0) }
    let moved = try execute(
      DocumentStatements.rename, [document.directory, document.name, target], path: path,
      doing: "set aside")
    guard !moved.isEmpty else {
      throw DocumentError(
        operation: "PostgreSQL set aside", path: path, reason: .notFound,
        detail: "no such document")
    }
    return String(path.dropLast(document.name.count)) + target
  }

  package func markActive(_ lockPath: String) {
    do {
      let document = try DocumentPath(lockPath, root: root)
      _ = try execute(
        DocumentStatements.markActive, [document.directory], path: lockPath,
        doing: "mark active")
    } catch {
      logger.warning("\(error.description)")
    }
  }

  // MARK: Directories

  /// The directory's version: one indexed read, nil when it has no row (or
  /// the server cannot be reached: then nothing kept is trusted).
  ///
  /// Outside a lock, threads asking at the same time share one statement
  /// (`ReadRounds`); inside one, the thread's transaction reads its own.
  package func identity(ofDirectory directory: String) -> DocumentVersion? {
    ServiceCounters.shared.count(.databaseRead)
    guard let relative = try? DocumentPath.relative(directory, root: root) else { return nil }
    let version: Data?
    if (try? sharesReads(directory)) == true {
      version = try? directoryVersions.value(for: relative) {
        (directories, connection) throws(DocumentError) in
        try readDirectoryVersions(directories, on: connection)
      }
    } else {
      version = try? execute(
        DocumentStatements.directoryVersion, [relative], path: directory,
        doing: "directory identity"
      ).first?[0]
    }
    guard let version else { return nil }
    return Self.identity(version: version, size: 0)
  }

  /// The directories' versions of one `ReadRounds` round, by relative path.
  private func readDirectoryVersions(_ directories: [String], on connection: RoundConnection)
    throws(DocumentError) -> [String: Data]
  {
    let rows = try connection.execute(
      DocumentStatements.directoryVersions, [DocumentStatements.arrayLiteral(directories)],
      path: root)
    var versions: [String: Data] = [:]
    for row in rows {
      guard let name = row[0], let version = row[1] else { continue }
      versions[String(decoding: name, as: UTF8.self)] = version
    }
    return versions
  }

  /// True when a document was ever stored in `directory` (it has a row).
  package func directoryExists(_ directory: String) throws(DocumentError) -> Bool {
    ServiceCounters.shared.count(.databaseRead)
    let relative = try DocumentPath.relative(directory, root: root)
    return try !execute(
      DocumentStatements.directoryVersion, [relative], path: directory, doing: "directory"
    ).isEmpty
  }

  /// The documents in `directory` and the next component of every
  /// directory under it, sorted: what a walk of the data directory finds
  /// on disk (but no lock files: a lock is no row).
  package func entries(ofDirectory directory: String) -> [String] {
    ServiceCounters.shared.count(.databaseRead)
    do {
      let relative = try DocumentPath.relative(directory, root: root)
      let prefix = relative.isEmpty ? "" : relative + "/"
      let names = try execute(
        DocumentStatements.names, [relative], path: directory, doing: "list")
      let subdirectories = try execute(
        DocumentStatements.subdirectories, [prefix, Self.likePattern(prefix) + "%"],
        path: directory, doing: "list")
      let all = (names + subdirectories).compactMap { row in
        row[0].map { String(decoding: $0, as: UTF8.self) }
      }
      return Set(all).filter { !$0.isEmpty }.sorted()
    } catch {
      logger.warning("\(error.description)")
      return []
    }
  }

  // MARK: Locks

  /// Runs `body` in a transaction holding the advisory lock named by
  /// `lockPath`, on this thread's connection; commits when `body` returns,
  /// rolls back when it throws. Nested on one thread, an inner lock takes
  /// its advisory lock in the outer transaction (under a savepoint, so
  /// that its timing out leaves the outer transaction usable).
  ///
  /// - Throws: `DocumentLock.Busy` when `DocumentLock.maximumThreads` threads of
  ///   this process already wait for or hold the lock (`.crowded`) or
  ///   someone held it for `timeout` (`.timedOut`); `DocumentError` when the
  ///   server fails (the change is then not acknowledged); or what `body`
  ///   throws.
  package func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    let lock = try DocumentPath(lockPath, root: root)
    return try DocumentLock.admitting(lockPath) {
      let milliseconds = "\(max(1, Int(timeout / .milliseconds(1))))ms"
      let take = (DocumentStatements.lock, [Data(lock.relativePath.utf8), Data(milliseconds.utf8)])
      var connection = try connection(for: lockPath)
      if connection.transactionDepth > 0 {
        try run("SAVEPOINT nested_lock", on: connection, path: lockPath, doing: "lock")
        do { try connection.pipeline([take]) } catch {
          _ = try? connection.run("ROLLBACK TO SAVEPOINT nested_lock")
          throw lockFailure(error, path: lockPath)
        }
        try run("RELEASE SAVEPOINT nested_lock", on: connection, path: lockPath, doing: "lock")
        connection.transactionDepth += 1
        defer { connection.transactionDepth -= 1 }
        return try body()
      }
      // One round trip: begin, take the lock. A connection found lost
      // there (the server restarted since its last use) had nothing under
      // way: it is made again and tried once more.
      for attempt in 1...2 {
        do {
          try connection.pipeline([(DocumentStatements.begin, []), take])
          break
        } catch let failure as PostgresFailure where failure.connectionLost && attempt == 1 {
          logger.debug("PostgreSQL: connecting again (\(failure.message))")
          connection = try self.connection(for: lockPath)
        } catch {
          _ = try? connection.run("ROLLBACK")
          throw lockFailure(error, path: lockPath)
        }
      }
      connection.transactionDepth = 1
      let value: T
      do { value = try body() } catch {
        connection.transactionDepth = 0
        _ = try? connection.run("ROLLBACK")
        throw error
      }
      connection.transactionDepth = 0
      let tag = try run("COMMIT", on: connection, path: lockPath, doing: "commit")
      guard tag == "COMMIT" else {
        throw DocumentError(
          operation: "PostgreSQL commit", path: lockPath, reason: .failed,
          detail: "a statement of the transaction failed, it was rolled back")
      }
      return value
    }
  }

  // MARK: Internals

  /// This thread's connection, the schema made first if no thread of this
  /// store has made it yet.
  private func connection(for path: String) throws(DocumentError) -> PostgresConnection {
    let connection: PostgresConnection
    do { connection = try PostgresConnection.current(conninfo, readiness: readiness) } catch {
      throw Self.documentError(error, path: path, doing: "connect")
    }
    if !schemaReady.withLock({ $0 }) && connection.transactionDepth == 0 {
      do { try connection.run(DocumentStatements.schema) } catch {
        _ = try? connection.run("ROLLBACK")
        throw Self.documentError(error, path: path, doing: "schema")
      }
      schemaReady.withLock { $0 = true }
    }
    return connection
  }

  func execute(
    _ statement: PreparedStatement, _ parameters: [any DataConvertible], path: String,
    doing what: String
  ) throws(DocumentError) -> [[Data?]] {
    let connection = try connection(for: path)
    do { return try connection.execute(statement, parameters.map(\.data)) } catch {
      throw Self.documentError(error, path: path, doing: what)
    }
  }

  @discardableResult
  private func run(
    _ sql: String, on connection: PostgresConnection, path: String, doing what: String
  )
    throws(DocumentError) -> String
  {
    do { return try connection.run(sql) } catch {
      throw Self.documentError(error, path: path, doing: what)
    }
  }

  /// `55P03` (lock_timeout) is the lock held by someone else all along.
  private func lockFailure(_ error: any Error, path: String) -> any Error {
    guard let failure = error as? PostgresFailure else { return error }
    if failure.sqlState == "55P03" { return DocumentLock.Busy(path: path, reason: .timedOut) }
    return Self.documentError(failure, path: path, doing: "lock")
  }

  /// One kind of shared read: its rounds, and the connection that their
  /// statements are sent on.
  private struct SharedRead<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let rounds = ReadRounds<Key, Value>()
    let connection: RoundConnection

    init(_ conninfo: String, readiness: DatabaseReadiness) {
      connection = RoundConnection(conninfo, readiness: readiness)
    }

    /// `key`'s value (see `ReadRounds.value`), `read` given the keys of a
    /// round and the connection to send its statement on.
    func value(
      for key: Key, read: ([Key], RoundConnection) throws(DocumentError) -> [Key: Value]
    ) throws(DocumentError) -> Value? {
      try rounds.value(for: key) { (keys) throws(DocumentError) in try read(keys, connection) }
    }
  }

  /// The connection one `ReadRounds` sends its statements on. Only the
  /// thread sending a round uses it, and `ReadRounds` lets one at a time:
  /// so one server process answers every round, its caches warm. On the
  /// sender's own connection instead, 128 server processes took turns,
  /// each rarely, and a round cost the server ~200 µs of CPU.
  private final class RoundConnection: @unchecked Sendable {
    private let conninfo: String
    private let readiness: DatabaseReadiness
    private var connection: PostgresConnection?

    init(_ conninfo: String, readiness: DatabaseReadiness) {
      self.conninfo = conninfo
      self.readiness = readiness
    }

    /// Runs a read; one that finds the connection lost (the server
    /// restarted since its last use) is read again on a new one.
    func execute(_ statement: PreparedStatement, _ parameters: [String], path: String)
      throws(DocumentError) -> [[Data?]]
    {
      let values = parameters.map { Data($0.utf8) }
      do {
        if let connection {
          do { return try connection.execute(statement, values) } catch  where error.connectionLost
          {
            try connection.reconnectIfLost()
            return try connection.execute(statement, values)
          }
        }
        let made = try PostgresConnection.unshared(conninfo, readiness: readiness)
        connection = made
        return try made.execute(statement, values)
      } catch {
        throw PostgresDocuments.documentError(error, path: path, doing: "read")
      }
    }
  }

  /// A failure as the seam tells it: a lost connection is `.unavailable`
  /// (the request may be retried), anything else `.failed`.
  fileprivate static func documentError(
    _ failure: PostgresFailure, path: String, doing what: String
  ) -> DocumentError {
    // A refused login is no outage: `serve` stops at start rather than
    // wait for a password that will not change by itself.
    DocumentError(
      operation: "PostgreSQL \(what)", path: path,
      reason: failure.connectionLost && !failure.loginRefused ? .unavailable : .failed,
      detail: failure.message)
  }

  /// A row's version (and size) as the seam's `DocumentVersion`: the
  /// number from the sequence, and the second it was written (`written`, a
  /// bigint); nil for a directory's version, which has none (0, as long
  /// ago as can be).
  private static func identity(version: Data?, size: Int64, written: Data? = nil)
    -> DocumentVersion
  {
    DocumentVersion(
      place: 0, number: UInt64(bitPattern: bigEndian(version)), size: size,
      modifiedSeconds: bigEndian(written), modifiedNanoseconds: 0)
  }

  private static func bigEndian(_ bytes: Data?) -> Int64 {
    guard let bytes, bytes.count == 8 else { return 0 }
    return bytes.reduce(0) { $0 << 8 | Int64($1) }
  }

  /// `text` matching itself in a `LIKE` pattern (backslash escapes).
  private static func likePattern(_ text: String) -> String {
    var pattern = ""
    for character in text {
      if character == "\\" || character == "%" || character == "_" { pattern.append("\\") }
      pattern.append(character)
    }
    return pattern
  }
}

/// A statement's parameter, sent as its binary value.
protocol DataConvertible {
  var data: Data { get }
}

extension String: DataConvertible {
  var data: Data { Data(utf8) }
}

extension Data: DataConvertible {
  var data: Data { self }
}
