import Foundation
import XCTest

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
