import ChecklistsModel
import Foundation
import Storage
import TestSupport
import Testing
import checklists

/// `check` and `prune` know the owners' pending imports: `check` reads
/// each and counts those waiting and those past their hour, reports (and
/// with `--repair` sets aside) an unreadable one; `prune --delete` removes
/// the expired ones and leaves those still waiting.
@Suite struct ImportMaintenanceTests {
  let temporary = TemporaryDirectory("import-maintenance")
  var data: String { temporary.path }
  let imports = PendingImports(durable: false)

  func pend(_ owner: VisitorDirectory, created: Date) throws {
    try imports.withLock(owner) {
      _ = try imports.save(
        PendingImport(
          created: created, fileName: "a.md", format: "markdown",
          lists: [ImportedList(name: "A", items: [ImportedItem(text: "x")])]), for: owner)
    }
  }

  @Test func checkCountsPendingImportsAndPruneRemovesTheExpiredOnes() throws {
    let waiting = try visitorWithAnItem("waiting", in: data)
    let expired = try visitorWithAnItem("expired", in: data)
    let damaged = try visitorWithAnItem("damaged", in: data)
    try pend(waiting, created: Date())
    try pend(expired, created: Date() - 2 * 3_600)
    try Data("not a pending import".utf8).write(
      to: URL(fileURLWithPath: PendingImports.path(of: damaged)))

    let checked = DataCheck.run(dataDirectory: data, repair: false)
    #expect(checked.pendingImports == 1)
    #expect(checked.expiredImports == 1)
    #expect(checked.problems.map(\.path) == [PendingImports.path(of: damaged)])
    #expect(checked.filesChecked == 3 + 3)  // three Checklists.plist, three pending imports

    let dryRun = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: true)
    #expect(dryRun.expiredImports == [PendingImports.path(of: expired)])
    #expect(FileManager.default.fileExists(atPath: PendingImports.path(of: expired)))

    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.failures == [])
    #expect(pruned.idle.isEmpty)
    #expect(pruned.expiredImports == [PendingImports.path(of: expired)])
    #expect(!FileManager.default.fileExists(atPath: PendingImports.path(of: expired)))
    #expect(try imports.load(of: waiting) != nil)

    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    #expect(repaired.problems.first?.keptAs != nil)
    #expect(!FileManager.default.fileExists(atPath: PendingImports.path(of: damaged)))
    let clean = DataCheck.run(dataDirectory: data, repair: false)
    #expect(clean.isClean, "\(clean.problems)")
    #expect(clean.pendingImports == 1 && clean.expiredImports == 0)
  }

  @Test func anIdleOwnersPendingImportGoesWithTheirDirectory() throws {
    let idle = try visitorWithAnItem("idle", in: data)
    try pend(idle, created: Date() - 500 * 86_400)
    try backdate(idle, days: 500)
    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.idle.map(\.directory) == [idle.path])
    #expect(pruned.expiredImports.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: idle.path))
  }
}
