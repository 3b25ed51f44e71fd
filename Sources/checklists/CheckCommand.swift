import ArgumentParser
import Foundation
import Logging

/// `checklists check`: validates every visitor's files.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Validate every visitor's Checklists.plist, Preferences.plist, calendar address, devices and pending import.",
    discussion: "Exits with status 0 only when every file is readable."
  )

  @Option(name: .long, help: "The data directory (the one holding users/).")
  var data: String

  @Option(help: StoreLocation.help)
  var store: StoreLocation = .files

  @Flag(name: .long, help: "Move unreadable files aside (<name>.corrupt-<timestamp>).")
  var repair = false

  @Option(name: .long, help: "Report visitors not seen for this many days (see `prune`).")
  var idleDays = 400

  func validate() throws {
    try store.validated()
  }

  func run() throws {
    let documents = try store.documents(
      dataDirectory: data, logger: Logger(label: "checklists.check"))
    let report = DataCheck.run(dataDirectory: data, documents: documents, repair: repair)
    for problem in report.problems { print(problem) }
    print(
      "\(report.visitors) visitors, \(report.filesChecked) files, \(report.problems.count) problems"
    )
    print(
      "\(report.calendarAddresses) calendar addresses; \(report.staleCalendarEntries) index entries "
        + "leading nowhere (harmless; prune --delete removes them)")
    print(
      "\(report.linkedBrowsers) linked browsers, \(report.signedOutBrowserEntries) signed out; "
        + "\(report.staleBrowserEntries) browser and "
        + "\(report.staleLinkEntries) link code index entries leading nowhere "
        + "(harmless; prune --delete removes them)")
    print(
      "\(report.staleAppEntries) calendar app index entries leading nowhere "
        + "(harmless; prune --delete removes them)")
    print(
      "\(report.staleShareEntries) share link index entries leading nowhere "
        + "(harmless; prune --delete removes them)")
    print(
      "\(report.pendingImports) imports waiting for their Confirm, \(report.expiredImports) expired "
        + "(harmless; prune --delete removes them)")
    print(
      idleSummary(VisitorActivity.visitors(dataDirectory: data, documents: documents), now: Date()))
    if !report.isClean { throw ExitCode(1) }
  }

  /// How many visitors have not been seen for `idleDays`, and for how long
  /// the longest-idle one has not: what an operator weighs before `prune`.
  func idleSummary(_ visitors: [VisitorActivity.Visitor], now: Date) -> String {
    let idle = visitors.filter { $0.idleDays(now: now) >= idleDays }
    let longest = visitors.map { $0.idleDays(now: now) }.max() ?? 0
    let bytes = idle.reduce(Int64(0)) { $0 + $1.bytes }
    return
      "\(idle.count) of \(visitors.count) visitors idle for \(idleDays) days or more (\(bytes) bytes); "
      + "the longest idle: \(longest) days"
  }
}
