import ChecklistsModel
import FileSystem
import Foundation
import Storage
import TestSupport
import Testing
import checklists

/// `check` and `prune` with calendar addresses: the index is checked, a
/// pruned visitor's address goes with them, and entries that lead nowhere
/// are swept.
@Suite struct CalendarMaintenanceTests {
  let temporary = TemporaryDirectory("calendar-maintenance")
  var data: String { temporary.path }
  var calendars: CalendarAddresses { CalendarAddresses(dataDirectory: data, durable: false) }

  private func visitorWithData(_ id: String) throws -> VisitorDirectory {
    try visitorWithAnItem(id, in: data)
  }

  @Test func checkCountsAddressesAndReportsDamagedOnes() throws {
    let good = try visitorWithData("good")
    let orphan = try visitorWithData("orphan")
    let damaged = try visitorWithData("damaged")
    _ = try calendars.create(for: good)
    let orphanSecret = try calendars.create(for: orphan)
    _ = try calendars.create(for: damaged)
    // An address whose index entry is lost would be a 404 for its owner.
    try FileManager.default.removeItem(atPath: calendars.entryPath(digest: orphanSecret.digest))
    try Data("nonsense".utf8).write(
      to: URL(fileURLWithPath: CalendarAddresses.secretPath(of: damaged)))
    // A stray file in the index, and an entry a crash left behind.
    try Data("x".utf8).write(to: URL(fileURLWithPath: "\(data)/calendars/stray"))
    _ = try? calendars.replace(for: good) { step in
      if step == .newEntryWritten { throw CancellationError() }
    }

    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(report.calendarAddresses == 1)
    // The damaged visitor's entry and the interrupted replacement's.
    #expect(report.staleCalendarEntries == 2)
    #expect(
      Set(report.problems.map(\.path)) == [
        CalendarAddresses.secretPath(of: orphan), CalendarAddresses.secretPath(of: damaged),
        "\(data)/calendars/stray",
      ])
  }

  /// A write of an entry cut short by a crash leaves its temporary file
  /// in the shard (never read): counted with the entries that lead nowhere
  /// once an hour old, and no problem either way.
  @Test func checkCountsTemporaryFilesOfInterruptedWritesAsLeadingNowhere() throws {
    let someone = try visitorWithData("someone")
    let secret = try calendars.create(for: someone)
    let entry = calendars.entryPath(digest: secret.digest)
    let (shard, name) = AtomicFile.split(entry)
    let old = "\(shard)/.\(name).tmp-123-456"
    let recent = "\(shard)/.\(name).tmp-123-789"
    for path in [old, recent] {
      try Data("\(someone.key)\n".utf8).write(to: URL(fileURLWithPath: path))
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -2 * 3_600)], ofItemAtPath: old)
    // A name that only looks like one is still reported.
    let odd = "\(shard)/.\(name.prefix(10)).tmp-1-2"
    try Data("x".utf8).write(to: URL(fileURLWithPath: odd))

    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(report.problems.map(\.path) == [odd])
    #expect(report.staleCalendarEntries == 1)
    #expect(report.calendarAddresses == 1)
  }

  @Test func pruneTakesAVisitorsAddressWithThemAndSweepsStrayEntries() throws {
    let idle = try visitorWithData("idle")
    let active = try visitorWithData("active")
    let idleSecret = try calendars.create(for: idle)
    let activeSecret = try calendars.create(for: active)
    _ = try? calendars.replace(for: active) { step in
      if step == .newEntryWritten { throw CancellationError() }
    }
    try backdate(idle, days: 500)

    let dryRun = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: true)
    #expect(dryRun.idle.map(\.directory) == [idle.path])
    #expect(dryRun.staleCalendarEntries.count == 1)
    #expect(calendars.entries().count == 3)
    #expect(try calendars.visitor(presenting: idleSecret.text) == idle)

    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.failures.isEmpty)
    #expect(pruned.idle.map(\.directory) == [idle.path])
    #expect(pruned.staleCalendarEntries.count == 1)
    #expect(try calendars.visitor(presenting: idleSecret.text) == nil)
    #expect(try calendars.visitor(presenting: activeSecret.text) == active)
    #expect(calendars.entries().map(\.path) == [calendars.entryPath(digest: activeSecret.digest)])
    #expect(DataCheck.run(dataDirectory: data, repair: false).isClean)
  }
}
