import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a command to its end and returns its exit status and output.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String]) throws -> (
  status: Int32, output: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

/// A child started with `posix_spawn` (Foundation's `Process` added some
/// 40 ms a child on Linux, which 200 kills cannot afford), its standard
/// output on a pipe.
struct SpawnedChild {
  let pid: pid_t
  let output: Int32

  init(_ executable: String, _ arguments: [String]) throws {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    close(pipeEnds[1])
    guard status == 0 else {
      close(pipeEnds[0])
      throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
    }
    pid = child
    output = pipeEnds[0]
  }

  /// Blocks until the child writes something (or exits).
  func awaitOutput() {
    var byte: UInt8 = 0
    _ = read(output, &byte, 1)
  }

  /// Kills the child with SIGKILL and reaps it; true when the signal ended it.
  func kill9() -> Bool {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    close(output)
    return (status & 0x7F) == SIGKILL
  }
}
