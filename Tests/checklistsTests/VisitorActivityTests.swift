import ChecklistsModel
import FileSystem
import Foundation
import Logging
import Preferences
import Storage
import TestSupport
import Testing
import checklists

/// Who has gone: the directory's time says when a visitor was last seen,
/// `prune` lists (dry run) or removes those idle long enough, and never
/// one who came back meanwhile.
@Suite struct VisitorActivityTests {
  let temporary = TemporaryDirectory("visitor-activity")
  var data: String { temporary.path }

  private func visitorWithData(_ id: String) throws -> VisitorDirectory {
    try visitorWithAnItem(id, in: data)
  }

  /// What a renewal of the visitor's cookie does (`VisitorSession`): each
  /// owner marks its lock file.
  private func markActive(_ visitor: VisitorDirectory) {
    visitor.markActive(in: LocalDocuments())
    Defaults(logger: Logger(label: "VisitorActivityTests")).markActive(directory: visitor.path)
  }

  @Test func lastActiveIsTheLatestTimeOfTheDirectoryAndItsFiles() throws {
    let visitor = try visitorWithData("a")
    try backdate(visitor, days: 50)
    var found = VisitorActivity.visitors(dataDirectory: data)
    #expect(found.map(\.directory) == [visitor.path])
    #expect(found.first?.idleDays(now: Date()) == 50)
    #expect(found.first?.bytes ?? 0 > 100)
    // A file written since counts, as does a renewal that marks the directory.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -3 * 86_400)],
      ofItemAtPath: visitor.checklistsPath)
    found = VisitorActivity.visitors(dataDirectory: data)
    #expect(found.first?.idleDays(now: Date()) == 3)
    markActive(visitor)
    #expect(VisitorActivity.visitors(dataDirectory: data).first?.idleDays(now: Date()) == 0)
    // Marking a visitor without a directory creates nothing.
    let stranger = VisitorDirectory(dataDirectory: data, visitorID: "stranger")
    markActive(stranger)
    #expect(!FileManager.default.fileExists(atPath: stranger.path))
  }

  @Test func pruneIsADryRunUnlessToldAndRemovesOnlyTheIdle() throws {
    let idle = try visitorWithData("idle")
    let recent = try visitorWithData("recent")
    try backdate(idle, days: 500)
    try backdate(recent, days: 20)

    let dryRun = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: true)
    #expect(dryRun.idle.map(\.directory) == [idle.path])
    #expect(FileManager.default.fileExists(atPath: idle.checklistsPath), "nothing removed")

    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.idle.map(\.directory) == [idle.path])
    #expect(pruned.failures == [])
    #expect(!FileManager.default.fileExists(atPath: idle.path))
    #expect(FileManager.default.fileExists(atPath: recent.checklistsPath))
    let shard = (idle.path as NSString).deletingLastPathComponent
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: shard).filter { $0.hasPrefix(".") } == [],
      "no half-removed directory left behind")
    #expect(try makeStore(data).load(recent)?.checklist(id: 1)?.items.count == 1)
  }

  /// A visitor who came back between the listing and the removal (their
  /// change waited for the lock, or is already on disk) is kept.
  @Test func pruneKeepsAVisitorActiveAgainUnderTheLock() throws {
    let visitor = try visitorWithData("back")
    try backdate(visitor, days: 500)
    let listed = VisitorActivity.visitors(dataDirectory: data)
    #expect(listed.first?.idleDays(now: Date()) == 500)
    let store = makeStore(data)
    let model = try #require(try store.load(visitor))
    let locked = DispatchSemaphore(value: 0)
    let comeBack = Thread {
      try? FileLock.withLock(visitor.lockPath) {
        locked.signal()
        usleep(300_000)  // prune has listed the visitor as idle and waits for the lock
        try AtomicFile.replaceReusingSpare(
          try ChecklistsFile.encode(model, format: .xml), at: visitor.checklistsPath,
          durable: false)
      }
    }
    comeBack.start()
    locked.wait()
    let report = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(report.skipped == [visitor.path])
    #expect(FileManager.default.fileExists(atPath: visitor.checklistsPath))
  }
}
