import CLibPQ
import Foundation
import ServiceMetrics

// Every libpq call of the package is in this file: above it, a connection
// is a `PostgresConnection`, a value is `Data`, and no C pointer escapes.

/// A failure reported by libpq or the server.
struct PostgresFailure: Error, Sendable {
  /// The server's SQLSTATE (`55P03`: lock not available); nil when the
  /// failure never reached the server.
  var sqlState: String?
  /// The server's or libpq's message, on one line.
  var message: String
  /// The connection is gone (or was never made): what failed may succeed
  /// on a new connection, which the thread's next operation makes.
  var connectionLost: Bool
  /// The server answered but would not let this login in (a wrong or
  /// missing password, no `pg_hba.conf` line, a certificate that does not
  /// verify): a setting to fix, not an outage to wait out.
  var loginRefused = false
}

/// A statement prepared once on each connection that runs it, by name.
/// Its parameters are cast in `sql` (`$1::text`, `$2::bytea`), so each is
/// sent in binary, as raw bytes.
struct PreparedStatement: Sendable {
  var name: String
  var sql: String
}

/// One connection to the server, owned by one thread (`current`), which
/// may also keep an open transaction on it across calls
/// (`transactionDepth`).
final class PostgresConnection {
  /// The connection of this thread to `conninfo`, made on first use and
  /// made again after it was lost; kept until the thread ends.
  ///
  /// - Throws: `PostgresFailure` (lost) when the server cannot be reached,
  ///   or when the connection was lost inside a transaction (whatever that
  ///   transaction did is gone: the next call outside it reconnects).
  static func current(_ conninfo: String, readiness: DatabaseReadiness? = nil)
    throws(PostgresFailure) -> PostgresConnection
  {
    let connections = ThreadConnections.current
    if let connection = connections.byConninfo[conninfo] {
      try connection.reconnectIfLost()
      return connection
    }
    let connection = try unshared(conninfo, readiness: readiness)
    connections.byConninfo[conninfo] = connection
    return connection
  }

  /// A connection of no thread's: its owner makes sure that one thread at
  /// a time uses it. Made at once; made again by `reconnectIfLost`. Every
  /// connect passes `readiness`, when given.
  static func unshared(_ conninfo: String, readiness: DatabaseReadiness? = nil)
    throws(PostgresFailure) -> PostgresConnection
  {
    let connection = PostgresConnection(conninfo: conninfo, readiness: readiness)
    try connection.connect()
    return connection
  }

  /// Connects again if the connection was lost (never inside a transaction).
  func reconnectIfLost() throws(PostgresFailure) {
    guard handle == nil else { return }
    guard transactionDepth == 0 else {
      throw PostgresFailure(
        sqlState: nil, message: "the connection was lost in a transaction", connectionLost: true)
    }
    try connect()
  }

  /// Nested transactions in progress (locks held) on this connection; the
  /// outermost began the transaction and ends it.
  var transactionDepth = 0

  /// How many times this connection was made (1 after the first).
  private(set) var connects = 0

  private let conninfo: String
  private let readiness: DatabaseReadiness?
  private var handle: OpaquePointer?
  private var prepared: Set<String> = []

  private init(conninfo: String, readiness: DatabaseReadiness?) {
    self.conninfo = conninfo
    self.readiness = readiness
  }

  deinit {
    if let handle { PQfinish(handle) }
  }

  /// Runs `statement` (prepared first if this connection has not yet) with
  /// `parameters` sent as binary values; the rows come back in binary
  /// (`bigint` as 8 bytes big-endian, `text` as UTF-8, `bytea` as is).
  func execute(_ statement: PreparedStatement, _ parameters: [Data]) throws(PostgresFailure)
    -> [[Data?]]
  {
    guard let handle else { throw lostFailure("not connected") }
    try prepare(statement)
    let result = Self.withParameters(parameters) { count, values, lengths, formats in
      PQexecPrepared(handle, statement.name, count, values, lengths, formats, 1)
    }
    defer { PQclear(result) }
    try check(result, expecting: PGRES_TUPLES_OK, PGRES_COMMAND_OK)
    return Self.rows(of: result)
  }

  /// Runs `steps` one after the other in one round trip (libpq's pipeline
  /// mode), as `execute` runs one; returns the last one's rows. The first
  /// that fails ends the rest (the server skips them) and is what is
  /// thrown. Outside a transaction the steps are one transaction, which
  /// commits when the last one has run.
  @discardableResult
  func pipeline(_ steps: [(PreparedStatement, [Data])]) throws(PostgresFailure) -> [[Data?]] {
    guard let handle else { throw lostFailure("not connected") }
    for (statement, _) in steps { try prepare(statement) }
    guard PQenterPipelineMode(handle) == 1 else { throw lost("could not enter pipeline mode") }
    for (statement, parameters) in steps {
      let sent = Self.withParameters(parameters) { count, values, lengths, formats in
        PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
      }
      guard sent == 1 else { throw lost(Self.message(PQerrorMessage(handle))) }
    }
    guard PQpipelineSync(handle) == 1 else { throw lost(Self.message(PQerrorMessage(handle))) }
    var failure: PostgresFailure?
    var rows: [[Data?]] = []
    for index in steps.indices {
      let result = PQgetResult(handle)
      guard let result else { throw lost("no answer") }
      if failure == nil {
        failure = problem(result, expecting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK])
        if failure == nil, index == steps.count - 1 { rows = Self.rows(of: result) }
      }
      PQclear(result)
      guard self.handle != nil else { throw failure ?? lost("no answer") }
      // Each statement's results end with a null one.
      if let extra = PQgetResult(handle) {
        PQclear(extra)
        throw lost("more results than statements")
      }
    }
    let sync = PQgetResult(handle)
    let synced = sync.map { PQresultStatus($0) == PGRES_PIPELINE_SYNC } ?? false
    PQclear(sync)
    guard synced, PQexitPipelineMode(handle) == 1 else {
      throw failure ?? lost("pipeline not ended")
    }
    if let failure { throw failure }
    return rows
  }

  /// Closes the connection if the server has closed its end since it was
  /// last used (a restart, a terminated server process): a statement sent
  /// on it would only fail once sent, when no one can tell whether the
  /// server received it. One `poll`; true when it closed the connection.
  @discardableResult
  func closeIfClosedByServer() -> Bool {
    guard let handle else { return false }
    var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
    // Nothing is due on an idle connection: anything readable is the
    // server's farewell and the end of the stream (libpq may read the one
    // without yet seeing the other), or so rare a notice that a new
    // connection costs nothing.
    guard poll(&socket, 1, 0) > 0 else { return false }
    close()
    return true
  }

  /// Closes the connection (outside a transaction); the next call
  /// connects again.
  func disconnect() {
    guard transactionDepth == 0 else { return }
    close()
  }

  /// Prepares `statement` on this connection unless it was.
  private func prepare(_ statement: PreparedStatement) throws(PostgresFailure) {
    guard !prepared.contains(statement.name) else { return }
    guard let handle else { throw lostFailure("not connected") }
    let result = PQprepare(handle, statement.name, statement.sql, 0, nil)
    defer { PQclear(result) }
    try check(result, expecting: PGRES_COMMAND_OK)
    prepared.insert(statement.name)
  }

  /// Runs `sql`, which may hold several statements separated by `;` (one
  /// round trip), with no parameters; returns the last one's command tag
  /// (`COMMIT`, or `ROLLBACK` when a failed transaction was ended).
  @discardableResult
  func run(_ sql: String) throws(PostgresFailure) -> String {
    guard let handle else { throw lostFailure("not connected") }
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    try check(result, expecting: PGRES_TUPLES_OK, PGRES_COMMAND_OK)
    return String(cString: PQcmdStatus(result))
  }

  /// `text` as an SQL string literal, quoted for this connection.
  func literal(_ text: String) throws(PostgresFailure) -> String {
    guard let handle else { throw lostFailure("not connected") }
    guard let quoted = PQescapeLiteral(handle, text, text.utf8.count) else {
      throw PostgresFailure(
        sqlState: nil, message: Self.message(PQerrorMessage(handle)), connectionLost: false)
    }
    defer { PQfreemem(quoted) }
    return String(cString: quoted)
  }

  // MARK: Connecting

  /// What every connection sets unless `conninfo` says otherwise: a bound
  /// on connecting and on a silent peer (TCP keepalives and
  /// `tcp_user_timeout`), so that no thread waits forever for a server that
  /// is gone, and a bound on any one statement.
  private static let defaults: [(String, String)] = [
    ("connect_timeout", "5"),
    ("keepalives", "1"),
    ("keepalives_idle", "10"),
    ("keepalives_interval", "5"),
    ("keepalives_count", "3"),
    ("tcp_user_timeout", "30000"),
    ("application_name", "checklists"),
    (
      "options",
      "-c statement_timeout=60000 -c client_min_messages=warning -c plan_cache_mode=force_generic_plan"
    ),
  ]

  private func connect() throws(PostgresFailure) {
    guard let readiness else { return try connectNow() }
    try readiness.connecting { () throws(PostgresFailure) in try connectNow() }
  }

  private func connectNow() throws(PostgresFailure) {
    if let old = handle {
      PQfinish(old)
      handle = nil
    }
    prepared = []
    // Later keywords win, and `dbname` is expanded into the parameters of
    // `conninfo` (a key=value string or a URI), so it comes last.
    let keywords = Self.defaults.map(\.0) + ["dbname"]
    let values = Self.defaults.map(\.1) + [conninfo]
    let made = Self.withCStrings(keywords) { keywordPointers in
      Self.withCStrings(values) { valuePointers in
        PQconnectdbParams(keywordPointers, valuePointers, 1)
      }
    }
    guard let made else { throw lostFailure("out of memory") }
    guard PQstatus(made) == CONNECTION_OK else {
      let message = Self.message(PQerrorMessage(made))
      let refused = PQconnectionNeedsPassword(made) == 1 || Self.refusesLogin(message)
      PQfinish(made)
      var failure = lostFailure(message)
      failure.loginRefused = refused
      throw failure
    }
    handle = made
    if connects > 0 { ServiceCounters.shared.count(.databaseReconnect) }
    connects += 1
  }

  /// libpq tells a refused login only in words (no SQLSTATE before a
  /// connection is made): the server's `28P01`/`28000` messages and
  /// libpq's own for a certificate it cannot verify, in English, which the
  /// server and the backend speak unless `lc_messages` says otherwise.
  private static func refusesLogin(_ message: String) -> Bool {
    [
      "authentication failed", "no pg_hba.conf entry", "no password supplied",
      "certificate verify failed", "does not match host name", "root certificate file",
      "role \"",
    ].contains { message.contains($0) }
  }

  // MARK: Results

  private func check(_ result: OpaquePointer?, expecting statuses: ExecStatusType...)
    throws(PostgresFailure)
  {
    guard handle != nil else { throw lostFailure("not connected") }
    if let failure = problem(result, expecting: statuses) { throw failure }
  }

  /// What went wrong when `result` has none of `statuses`, nil when it has
  /// one. A failure that lost the connection closes it: the next call
  /// outside a transaction connects again.
  private func problem(_ result: OpaquePointer?, expecting statuses: [ExecStatusType])
    -> PostgresFailure?
  {
    guard let handle else { return lostFailure("not connected") }
    if let result, statuses.contains(PQresultStatus(result)) { return nil }
    var sqlState: String?
    var message = Self.message(PQerrorMessage(handle))
    if let result {
      if let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
        sqlState = String(cString: state)
      }
      let resultMessage = Self.message(PQresultErrorMessage(result))
      if !resultMessage.isEmpty { message = resultMessage }
    }
    let lost =
      PQstatus(handle) != CONNECTION_OK || sqlState == nil || sqlState!.hasPrefix("08")
      || ["57P01", "57P02", "57P03"].contains(sqlState!)
    if lost { close() }
    return PostgresFailure(
      sqlState: sqlState, message: message.isEmpty ? "no answer" : message, connectionLost: lost)
  }

  /// Closes the connection after a failure that leaves it unusable; the
  /// failure to throw.
  private func lost(_ message: String) -> PostgresFailure {
    close()
    return lostFailure(message)
  }

  private func close() {
    if let handle { PQfinish(handle) }
    handle = nil
    prepared = []
  }

  private func lostFailure(_ message: String) -> PostgresFailure {
    PostgresFailure(sqlState: nil, message: message, connectionLost: true)
  }

  private static func rows(of result: OpaquePointer?) -> [[Data?]] {
    guard let result else { return [] }
    let rowCount = PQntuples(result)
    let columnCount = PQnfields(result)
    var rows: [[Data?]] = []
    rows.reserveCapacity(Int(rowCount))
    for row in 0..<rowCount {
      var values: [Data?] = []
      values.reserveCapacity(Int(columnCount))
      for column in 0..<columnCount {
        if PQgetisnull(result, row, column) != 0 {
          values.append(nil)
        } else {
          let length = Int(PQgetlength(result, row, column))
          let bytes = PQgetvalue(result, row, column)
          values.append(bytes.map { Data(bytes: $0, count: length) } ?? Data())
        }
      }
      rows.append(values)
    }
    return rows
  }

  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "" }
    return String(cString: text).split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  // MARK: Buffers

  /// One byte for an empty value: a null pointer would be SQL NULL.
  private static let empty: StaticString = ""

  /// Calls `body` with `parameters` as libpq takes them: their count, a
  /// pointer to each one's bytes, their lengths, and their formats (all
  /// binary).
  private static func withParameters<R>(
    _ parameters: [Data],
    _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> R
  ) -> R {
    withBuffers(parameters, index: 0, pointers: []) { pointers in
      body(
        Int32(parameters.count), pointers, parameters.map { Int32($0.count) },
        [Int32](repeating: 1, count: parameters.count))
    }
  }

  /// Calls `body` with a pointer to each of `values`' bytes, without
  /// copying them (a document may be megabytes).
  private static func withBuffers<R>(
    _ values: [Data], index: Int, pointers: [UnsafePointer<CChar>?],
    _ body: ([UnsafePointer<CChar>?]) -> R
  ) -> R {
    if index == values.count { return body(pointers) }
    return values[index].withUnsafeBytes { raw in
      let pointer = raw.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) }
      let fallback = UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
      return withBuffers(values, index: index + 1, pointers: pointers + [pointer ?? fallback], body)
    }
  }

  private static func withCStrings<R>(
    _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R
  ) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) } + [nil])
  }
}

/// The connections of one thread, by conninfo: kept in a thread-specific
/// slot whose destructor releases them (`PQfinish`) when the thread ends.
private final class ThreadConnections {
  var byConninfo: [String: PostgresConnection] = [:]

  static var current: ThreadConnections {
    if let slot = pthread_getspecific(threadKey) {
      return Unmanaged<ThreadConnections>.fromOpaque(slot).takeUnretainedValue()
    }
    let connections = ThreadConnections()
    pthread_setspecific(threadKey, Unmanaged.passRetained(connections).toOpaque())
    return connections
  }
}

private let threadKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { slot in
    guard let slot else { return }
    Unmanaged<ThreadConnections>.fromOpaque(slot).release()
  }
  precondition(status == 0, "pthread_key_create failed: \(status)")
  return key
}()
