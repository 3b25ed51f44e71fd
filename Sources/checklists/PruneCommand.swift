import ArgumentParser
import Foundation
import Logging

/// `checklists prune`: lists, or with `--delete` removes, the data of
/// visitors who have not been seen for a given number of days.
struct PruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "List (or with --delete remove) visitors idle for at least --idle-days days.",
    discussion: """
      A visitor is seen when they change something or, at most once a day, when their \
      browser's cookie is renewed on a visit. A browser keeps the cookie 400 days after \
      its last renewal, so a visitor idle for longer can no longer come back as themselves; \
      one idle for less still can, and would find their lists gone. A removed visitor's \
      calendar address stops working with them, and so do the browsers linked to them \
      (a visitor is seen when any of their browsers is). Calendar, browser and link \
      code index entries that lead nowhere (left by an interrupted change) are removed \
      too, and so are imports never confirmed within their hour. Without --delete nothing \
      is removed.
      """
  )

  @Option(name: .long, help: "The data directory (the one holding users/).")
  var data: String

  @Option(help: StoreLocation.help)
  var store: StoreLocation = .files

  @Option(name: .long, help: "Days without a visit or a change (at least 1).")
  var idleDays: Int

  @Flag(name: .long, help: "Remove the directories instead of listing them.")
  var delete = false

  func validate() throws {
    try store.validated()
    guard idleDays >= 1 else { throw ValidationError("--idle-days must be at least 1") }
  }

  func run() throws {
    let documents = try store.documents(
      dataDirectory: data, logger: Logger(label: "checklists.prune"))
    let report = VisitorActivity.prune(
      dataDirectory: data, documents: documents, idleDays: idleDays, dryRun: !delete)
    let now = Date()
    for visitor in report.idle {
      print("\(visitor.directory)  idle \(visitor.idleDays(now: now)) days, \(visitor.bytes) bytes")
    }
    for directory in report.skipped { print("\(directory)  kept: active again") }
    for entry in report.staleCalendarEntries {
      print("\(entry)  calendar index entry leading nowhere")
    }
    for entry in report.staleBrowserEntries {
      print("\(entry)  browser index entry leading nowhere")
    }
    for entry in report.staleLinkEntries {
      print("\(entry)  link code index entry leading nowhere")
    }
    for entry in report.staleAppEntries {
      print("\(entry)  calendar app index entry leading nowhere")
    }
    for entry in report.staleShareEntries {
      print("\(entry)  share link index entry leading nowhere")
    }
    for path in report.expiredImports {
      print("\(path)  import past its hour, never confirmed")
    }
    for failure in report.failures { print("failed: \(failure)") }
    let bytes = report.idle.reduce(Int64(0)) { $0 + $1.bytes }
    let verb = delete ? "removed" : "would remove (dry run; --delete removes)"
    let staleEntries =
      report.staleCalendarEntries.count + report.staleBrowserEntries.count
      + report.staleLinkEntries.count + report.staleAppEntries.count
      + report.staleShareEntries.count
    print(
      "\(report.idle.count) visitors idle for \(idleDays) days or more, \(bytes) bytes, "
        + "\(staleEntries) index entries leading nowhere and \(report.expiredImports.count) "
        + "expired imports: \(verb)")
    if !report.failures.isEmpty { throw ExitCode(1) }
  }
}
