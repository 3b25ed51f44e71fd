import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Signals reach the real `checklists serve` process: the signal set-up
/// belongs to the process (libfcgi installs process-wide handlers), so a
/// test inside the test runner would prove nothing about it.
@Suite struct SignalTests {
  /// libfcgi's own SIGUSR1 handler sets a flag after which its accept
  /// refuses every new connection, so one stray `kill -USR1` (or a logrotate
  /// rule written for another daemon) would leave the backend alive but deaf.
  @Test func sigusr1LeavesTheBackendServing() throws {
    let backend = try ServeProcess()
    #expect(try backend.health() == 200)

    #expect(kill(backend.pid, SIGUSR1) == 0)
    usleep(100_000)
    // More requests than the backend has threads, each on a new connection,
    // so that every one goes through an accept on the listening socket.
    for attempt in 1...6 {
      let status = Result { try backend.health() }
      #expect((try? status.get()) == 200, "request \(attempt) after SIGUSR1: \(status)")
    }
    #expect(backend.isRunning)
    #expect(backend.terminate() == 0, "exit status after SIGTERM; log:\n\(backend.log)")
  }
}

/// `checklists serve` on a Unix socket in a temporary directory, with the
/// repository's templates and public files and an empty data directory.
///
/// Started with `posix_spawn` and a clean signal mask and dispositions:
/// Foundation's `Process` starts its child with most signals blocked,
/// SIGUSR1 among them, which would hide the very thing a signal test checks.
final class ServeProcess {
  let pid: pid_t
  private let temporary: TemporaryDirectory
  var directory: String { temporary.path }
  private var exitStatus: Int32?
  var socketPath: String { directory + "/backend.sock" }
  var log: String {
    (try? String(contentsOfFile: directory + "/stderr.log", encoding: .utf8)) ?? ""
  }

  init(threads: Int = 2) throws {
    let root = BuiltTool.packageRoot
    let temporary = TemporaryDirectory("fcgi-serve")
    self.temporary = temporary
    let directory = temporary.path
    try FileManager.default.createDirectory(
      atPath: directory + "/data", withIntermediateDirectories: true)
    let arguments = [
      try BuiltTool.path("checklists"), "serve", "--socket", directory + "/backend.sock",
      "--threads", "\(threads)",
      "--data", directory + "/data", "--templates", root + "/Templates",
      "--public", root + "/Public",
    ]
    pid = try Self.spawn(arguments, stderr: directory + "/stderr.log")
    let deadline = Date().addingTimeInterval(30)
    while (try? health()) != 200 {
      guard isRunning, Date() < deadline else {
        throw ServeProcessFailure(description: "checklists serve did not start; log:\n\(log)")
      }
      usleep(50_000)
    }
  }

  var isRunning: Bool {
    guard exitStatus == nil else { return false }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return true }
    exitStatus = Self.decode(status)
    return false
  }

  /// The status of `GET /health` on a new connection, within two seconds.
  func health() throws -> Int? {
    let client = try FastCGITestClient(socketPath: socketPath, timeout: 2)
    defer { client.close() }
    return try client.send(parameters: parameters(uri: "/health"))?.status
  }

  /// Sends SIGTERM if it still runs and returns the exit status (128 + the
  /// signal when a signal ended it).
  @discardableResult func terminate() -> Int32 {
    if isRunning {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0, errno == EINTR {}
      exitStatus = Self.decode(status)
    }
    return exitStatus ?? -1
  }

  deinit { terminate() }

  private static func decode(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  private static func spawn(_ arguments: [String], stderr: String) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGUSR1, SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    guard result == 0 else {
      throw ServeProcessFailure(
        description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
    }
    return pid
  }
}

struct ServeProcessFailure: Error, CustomStringConvertible {
  var description: String
}
