import ChecklistsModel
import Foundation
import Logging
import Storage

func makeStore(
  _ data: String, durable: Bool = false, format: PropertyListSerialization.PropertyListFormat = .xml
)
  -> ChecklistStore
{
  ChecklistStore(
    configuration: .init(dataDirectory: data, format: format, durable: durable),
    logger: Logger(label: "StorageTests"))
}

/// A child could not be started.
struct SpawnError: Error, CustomStringConvertible {
  var description: String
}

/// A child process started with posix_spawn, its stdout on a pipe.
/// (Foundation's Process polls for exit, which costs ~50 ms per child; the
/// crash test starts 200 of them.)
struct SpawnedChild {
  let pid: pid_t
  let output: Int32

  init(_ executable: String, _ arguments: [String]) throws {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(fds[1])
    guard status == 0 else {
      close(fds[0])
      throw SpawnError(description: "posix_spawn \(executable): \(status)")
    }
    self.pid = pid
    self.output = fds[0]
  }

  /// Blocks until the child writes something (or closes its stdout).
  func readSome() -> Data {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(output, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      return Data(buffer.prefix(max(0, count)))
    }
  }

  /// Reads until the child's stdout closes.
  func readToEnd() -> Data {
    var all = Data()
    while true {
      let chunk = readSome()
      if chunk.isEmpty { return all }
      all += chunk
    }
  }

  /// Waits for the child; returns the signal that killed it, or nil.
  @discardableResult
  func wait() -> (exitStatus: Int32?, signal: Int32?) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    close(output)
    let signal = status & 0x7f
    return signal == 0 ? ((status >> 8) & 0xff, nil) : (nil, signal)
  }
}

/// `initial` closures for `ChecklistStore.update`.
func storedOrFirstRun(_ stored: DataModel?) -> DataModel { stored ?? .firstRun() }
func storedOrEmpty(_ stored: DataModel?) -> DataModel { stored ?? DataModel() }
func storedModel(_ stored: DataModel?) -> DataModel { stored! }
