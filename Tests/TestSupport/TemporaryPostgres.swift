import Foundation

/// A throwaway PostgreSQL 15 cluster (Debian's `postgresql-15`): `initdb`
/// into a fresh temporary directory, listening only on a Unix socket in
/// that directory, run by the unprivileged `postgres` user when the tests
/// run as root. One per test process (`shared`), a fresh database per test
/// (`createDatabase`); stopped by the postmaster's process id when the
/// process exits, and its directory removed.
public final class TemporaryPostgres: @unchecked Sendable {
  /// Where Debian installs the server's programs.
  public static let binaries = "/usr/lib/postgresql/15/bin"
  /// The port, which only names the socket (`.s.PGSQL.5432` in `directory`).
  public static let port = 5432

  /// The cluster of this test process, started on first use.
  ///
  /// - Throws: `Failure` when PostgreSQL 15 is not installed or does not
  ///   start (its log is in the message).
  public static func shared() throws -> TemporaryPostgres {
    try sharedInstance.get()
  }

  /// The temporary directory: the socket, the log, and the cluster in `data`.
  public let directory: String
  public var dataDirectory: String { directory + "/data" }

  /// A libpq connection string for `database` on this cluster.
  public func conninfo(_ database: String) -> String {
    "host=\(directory) port=\(Self.port) user=postgres dbname=\(database)"
  }

  /// Creates a database of a fresh random name and returns its conninfo.
  public func createDatabase() throws -> String {
    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try sql("CREATE DATABASE \(name)")
    return conninfo(name)
  }

  /// Runs `statement` with `psql` in the database `postgres`.
  public func sql(_ statement: String, database: String = "postgres") throws {
    try Self.run(
      Self.binaries + "/psql",
      ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo(database), "-c", statement],
      asServer: false)
  }

  /// The postmaster's process id (it changes when the cluster restarts).
  public var pid: Int32? {
    guard
      let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
      let first = text.split(separator: "\n").first
    else { return nil }
    return Int32(first.trimmingCharacters(in: .whitespaces))
  }

  /// Restarts the cluster as after a crash (`pg_ctl restart -m immediate`):
  /// every connection is cut, nothing is shut down cleanly.
  public func restartImmediate() throws {
    try Self.run(
      Self.binaries + "/pg_ctl",
      ["-D", dataDirectory, "-l", directory + "/log", "-m", "immediate", "-w", "restart"],
      asServer: true)
  }

  /// Stops the postmaster by its process id (SIGINT: a fast shutdown, then
  /// SIGKILL if it lingers 30 s), waits until it is gone, and removes the
  /// directory.
  public func stop() {
    if let pid {
      kill(pid, SIGINT)
      let deadline = Date().addingTimeInterval(30)
      while kill(pid, 0) == 0 {
        if Date() > deadline { kill(pid, SIGKILL) }
        usleep(20_000)
      }
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Makes and starts a cluster in a new temporary directory.
  public init() throws {
    directory = NSTemporaryDirectory() + "checklists-postgres-\(UUID().uuidString)"
    let manager = FileManager.default
    try manager.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    guard manager.isExecutableFile(atPath: Self.binaries + "/initdb") else {
      throw Failure(message: "PostgreSQL 15 is not installed (scripts/install-deps test)")
    }
    if geteuid() == 0 {
      guard let user = getpwnam("postgres") else {
        throw Failure(message: "no user postgres to run the server as")
      }
      chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
    }
    do {
      try Self.run(
        Self.binaries + "/initdb",
        [
          "-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C",
          "--no-sync",
        ], asServer: true)
      let options = [
        "-c listen_addresses=''", "-c unix_socket_directories='\(directory)'",
        "-c port=\(Self.port)", "-c fsync=on", "-c max_connections=300",
      ].joined(separator: " ")
      try Self.run(
        Self.binaries + "/pg_ctl",
        ["-D", dataDirectory, "-l", directory + "/log", "-o", options, "-w", "start"],
        asServer: true)
    } catch {
      stop()
      throw error
    }
  }

  /// PostgreSQL could not be made, started or asked.
  public struct Failure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  // MARK: Internals

  private static let sharedInstance: Result<TemporaryPostgres, any Error> = {
    let result = Result { try TemporaryPostgres() }
    if case .success = result { atexit { try? TemporaryPostgres.sharedInstance.get().stop() } }
    return result
  }()

  /// Runs a program to its end, as `postgres` (`runuser`) when `asServer`
  /// and the tests run as root (the server refuses to run as root); its
  /// output goes to a file, which a failure quotes. `posix_spawn` and
  /// `waitpid`, not Foundation's `Process`, whose `waitUntilExit` was seen
  /// to wait forever when two clusters started at once.
  private static func run(_ program: String, _ arguments: [String], asServer: Bool) throws {
    let command =
      asServer && geteuid() == 0
      ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments
      : [program] + arguments
    let outputPath = NSTemporaryDirectory() + "checklists-postgres-output-\(UUID().uuidString)"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = command.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw Failure(message: "\(command[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let exited = status & 0x7f == 0 && (status >> 8) & 0xff == 0
    guard exited else {
      let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      throw Failure(
        message: "\(command.joined(separator: " ")) ended with status \(status): \(output)")
    }
  }
}
