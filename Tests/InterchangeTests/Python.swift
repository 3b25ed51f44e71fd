import Foundation
import TestSupport

/// Runs a Python script with `python3` (from `PATH`) and the packages
/// `scripts/install-deps test` installs: a missing interpreter or package
/// is a failure naming what to install, never a skipped check.
enum Python {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// The script's standard output.
  ///
  /// - Throws: `Failed` with its standard error when it exits with
  ///   another status than 0.
  static func run(_ script: String, arguments: [String], in directory: TemporaryDirectory)
    throws -> String
  {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    guard
      let python = directories.map({ "\($0)/python3" }).first(
        where: FileManager.default.isExecutableFile(atPath:))
    else {
      throw Failed(description: "python3 is not installed (`scripts/install-deps test`)")
    }
    let scriptPath = directory.appending("check-\(UUID().uuidString).py")
    let outputPath = scriptPath + ".out"
    let errorsPath = scriptPath + ".err"
    try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
    FileManager.default.createFile(atPath: outputPath, contents: nil)
    FileManager.default.createFile(atPath: errorsPath, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
    defer {
      try? output.close()
      try? errors.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [scriptPath] + arguments
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let printed = try String(contentsOfFile: outputPath, encoding: .utf8)
    guard process.terminationStatus == 0 else {
      let complaint = try String(contentsOfFile: errorsPath, encoding: .utf8)
      throw Failed(
        description:
          "python3 exited with \(process.terminationStatus): \(complaint) (the packages come from `scripts/install-deps test`)"
      )
    }
    return printed
  }
}
