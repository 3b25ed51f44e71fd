import Foundation
import TestSupport

/// A program from a Debian package that a test runs, found on `PATH`; a
/// missing one is an error naming its package, so the test fails rather
/// than passing without it.
struct ExternalTool {
  let name: String
  /// The Debian package that installs it (`scripts/install-deps test`).
  let package: String

  static let rsvgConvert = ExternalTool(name: "rsvg-convert", package: "librsvg2-bin")
  static let zbarimg = ExternalTool(name: "zbarimg", package: "zbar-tools")

  /// What a finished run left behind.
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  struct Missing: Error, CustomStringConvertible {
    var tool: ExternalTool
    var description: String {
      "\(tool.name) is not installed: the QR code round trip needs it "
        + "(Debian package \(tool.package); `scripts/install-deps test` installs it)"
    }
  }

  struct Failed: Error, CustomStringConvertible {
    var tool: ExternalTool
    var arguments: [String]
    var run: Run
    var description: String {
      "\(tool.name) \(arguments.joined(separator: " ")) exited with \(run.status): \(run.errors)"
    }
  }

  /// The executable's path: the first `PATH` directory that has it.
  func path() throws -> String {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    for directory in directories {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw Missing(tool: self)
  }

  /// Runs the tool with `arguments` to its end, its output and errors
  /// collected in files of `directory` (two pipes read one after the
  /// other could block on the second).
  ///
  /// - Throws: `Missing`, or `Failed` when it exits with another status
  ///   than 0.
  @discardableResult
  func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try path())
    process.arguments = arguments
    let outputPath = directory.appending("\(name).out")
    let errorsPath = directory.appending("\(name).err")
    FileManager.default.createFile(atPath: outputPath, contents: nil)
    FileManager.default.createFile(atPath: errorsPath, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
    defer {
      try? output.close()
      try? errors.close()
    }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let run = Run(
      status: process.terminationStatus,
      output: try String(contentsOfFile: outputPath, encoding: .utf8),
      errors: try String(contentsOfFile: errorsPath, encoding: .utf8))
    guard run.status == 0 else { throw Failed(tool: self, arguments: arguments, run: run) }
    return run
  }
}
