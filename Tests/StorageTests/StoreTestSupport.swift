import ChecklistsModel
import Foundation
import Logging
import Storage
import XCTest

/// A fresh directory under the system's temporary directory, removed by the test's teardown.
func makeDataDirectory(_ test: XCTestCase) throws -> String {
  let path = NSTemporaryDirectory() + "checklists-store-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
  return path
}

func makeStore(
  _ data: String, durable: Bool = false, format: PropertyListSerialization.PropertyListFormat = .xml
)
  -> ChecklistStore
{
  ChecklistStore(
    configuration: .init(dataDirectory: data, format: format, durable: durable),
    logger: Logger(label: "StorageTests"))
}

/// The store-child executable, built beside the tests by `swift build --build-tests`.
func storeChildURL() throws -> URL {
  var candidates: [URL] = []
  if let executable = Bundle.main.executableURL {
    candidates.append(executable.deletingLastPathComponent().appendingPathComponent("store-child"))
  }
  for bundle in Bundle.allBundles {
    candidates.append(
      bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("store-child"))
  }
  let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  candidates.append(packageRoot.appendingPathComponent(".build/debug/store-child"))
  guard
    let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw MissingTool(
      description:
        "store-child not found (looked in \(candidates.map(\.path))); build it with `swift build --build-tests`"
    )
  }
  return found
}

/// A seeded generator (SplitMix64), so a failing sequence can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

struct MissingTool: Error, CustomStringConvertible {
  var description: String
}

/// A child process started with posix_spawn, its stdout on a pipe.
/// (Foundation's Process polls for exit, which costs ~50 ms per child; the
/// crash test starts 200 of them.)
struct SpawnedChild {
  let pid: pid_t
  let output: Int32

  init(_ executable: URL, _ arguments: [String]) throws {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw MissingTool(description: "pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    close(fds[1])
    guard status == 0 else {
      close(fds[0])
      throw MissingTool(description: "posix_spawn \(executable.path): \(status)")
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
