import ChecklistsModel
import FileSystem
import Foundation
import Logging
import PostgresStore
import Storage
import TestSupport
import Testing
import checklists

/// `prune` on PostgreSQL: a visitor's last activity is the latest write of
/// their documents or their directory's `active` mark; a dry run removes
/// nothing; `--delete` removes the idle visitor's rows under the same
/// locks the backends take, and keeps one who came back meanwhile.
@Suite("prune on PostgreSQL")
struct PostgresPruneTests {
  let data = "/srv/checklists-\(UUID().uuidString)/data"

  private func database() throws -> (TemporaryPostgres, PostgresDocuments, String) {
    let postgres = try TemporaryPostgres.shared()
    let conninfo = try postgres.createDatabase()
    let name = try #require(conninfo.split(separator: "=").last.map(String.init))
    return (
      postgres, PostgresDocuments(conninfo: conninfo, root: data, logger: Logger(label: "test")),
      name
    )
  }

  private func visitorWithAnItem(_ id: String, in documents: PostgresDocuments) throws
    -> VisitorDirectory
  {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: id)
    let store = ChecklistStore(
      configuration: .init(dataDirectory: data, documents: documents, durable: false),
      logger: Logger(label: "test"))
    try store.update(visitor, initial: storedOrFirstRun) { model in
      _ = try model.addItem(text: "milk", toList: 1)
    }
    return visitor
  }

  private func backdate(
    _ visitor: VisitorDirectory, days: Int, in postgres: TemporaryPostgres, database: String
  ) throws {
    let directory = String(visitor.path.dropFirst(data.count + 1))
    try postgres.sql(
      "UPDATE documents SET written = now() - interval '\(days) days' WHERE directory = '\(directory)'",
      database: database)
  }

  @Test func aDryRunListsAndADeleteRemovesOnlyTheIdle() throws {
    let (postgres, documents, name) = try database()
    let idle = try visitorWithAnItem("idle", in: documents)
    let recent = try visitorWithAnItem("recent", in: documents)
    let marked = try visitorWithAnItem("marked", in: documents)
    try backdate(idle, days: 500, in: postgres, database: name)
    try backdate(recent, days: 20, in: postgres, database: name)
    try backdate(marked, days: 500, in: postgres, database: name)
    // A returning visitor's daily renewal, without a change.
    documents.markActive(marked.lockPath)

    let visitors = VisitorActivity.visitors(dataDirectory: data, documents: documents)
    let days = Dictionary(
      uniqueKeysWithValues: visitors.map { ($0.directory, $0.idleDays(now: Date())) })
    #expect(days == [idle.path: 500, recent.path: 20, marked.path: 0])
    #expect(visitors.allSatisfy { $0.bytes > 100 })

    let dryRun = VisitorActivity.prune(
      dataDirectory: data, documents: documents, idleDays: 400, dryRun: true)
    #expect(dryRun.idle.map(\.directory) == [idle.path])
    #expect(dryRun.failures == [])
    #expect(try documents.directoryExists(idle.path), "nothing removed")

    let pruned = VisitorActivity.prune(
      dataDirectory: data, documents: documents, idleDays: 400, dryRun: false)
    #expect(pruned.idle.map(\.directory) == [idle.path])
    #expect(pruned.failures == [])
    #expect(try !documents.directoryExists(idle.path))
    #expect(try documents.identity(of: idle.checklistsPath) == nil)
    #expect(try documents.identity(of: recent.checklistsPath) != nil)
    #expect(try documents.identity(of: marked.checklistsPath) != nil)
    let remaining = VisitorActivity.visitors(dataDirectory: data, documents: documents)
    #expect(Set(remaining.map(\.directory)) == [recent.path, marked.path])
  }

  /// A visitor whose change holds their lock while `prune` wants it is
  /// looked at again under the lock, and kept.
  @Test func aVisitorActiveAgainUnderTheLockIsKept() throws {
    let (postgres, documents, name) = try database()
    let visitor = try visitorWithAnItem("back", in: documents)
    try backdate(visitor, days: 500, in: postgres, database: name)
    let bytes = try #require(try documents.read(visitor.checklistsPath))
    let locked = DispatchSemaphore(value: 0)
    let comeBack = Thread {
      try? documents.withLock(visitor.lockPath) {
        locked.signal()
        usleep(300_000)  // prune has listed the visitor as idle and waits for the lock
        try documents.replace(bytes, at: visitor.checklistsPath, durable: true)
      }
    }
    comeBack.start()
    locked.wait()
    let report = VisitorActivity.prune(
      dataDirectory: data, documents: documents, idleDays: 400, dryRun: false)
    #expect(report.skipped == [visitor.path])
    #expect(try documents.read(visitor.checklistsPath) == bytes)
  }
}
