import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The `preferences-tool` executable, built by `swift build --build-tests`
/// next to the test bundle (a test target may not depend on an executable).
func preferencesTool() throws -> String {
  var candidates: [String] = []
  if let bundle = Bundle(for: ProcessMarker.self).bundleURL.deletingLastPathComponent().path
    as String?
  {
    candidates.append(bundle + "/preferences-tool")
  }
  if let executable = Bundle.main.executableURL {
    candidates.append(executable.deletingLastPathComponent().path + "/preferences-tool")
  }
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  candidates.append(root.path + "/.build/debug/preferences-tool")
  for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
    return candidate
  }
  XCTFail(
    "preferences-tool not found (looked in \(candidates)); run `swift build --build-tests` first")
  throw CocoaError(.fileNoSuchFile)
}

private final class ProcessMarker {}

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
