import ArgumentParser
import Storage

/// `checklists check`: validates every visitor's files.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Validate every visitor's Checklists.plist and Preferences.plist.",
    discussion: "Exits with status 0 only when every file is readable."
  )

  @Option(name: .long, help: "The data directory (the one holding users/).")
  var data: String

  @Flag(name: .long, help: "Move unreadable files aside (<name>.corrupt-<timestamp>).")
  var repair = false

  func run() throws {
    let report = DataCheck.run(dataDirectory: data, repair: repair)
    for problem in report.problems { print(problem) }
    print(
      "\(report.visitors) visitors, \(report.filesChecked) files, \(report.problems.count) problems"
    )
    if !report.isClean { throw ExitCode(1) }
  }
}
