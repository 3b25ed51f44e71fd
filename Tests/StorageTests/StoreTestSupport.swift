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

func makeStore(_ data: String, durable: Bool = false, format: PropertyListSerialization.PropertyListFormat = .xml)
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
    candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("store-child"))
  }
  let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  candidates.append(packageRoot.appendingPathComponent(".build/debug/store-child"))
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw MissingTool(
      description:
        "store-child not found (looked in \(candidates.map(\.path))); build it with `swift build --build-tests`")
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
