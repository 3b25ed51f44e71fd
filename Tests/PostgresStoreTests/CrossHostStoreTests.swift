import ChecklistsModel
import FileSystem
import Foundation
import Logging
import PostgresStore
import Storage
import TestSupport
import Testing

/// The checklist store and the preferences over one PostgreSQL database
/// from two instances, as two backend hosts hold them: each keeps its own
/// cache of decoded models, and neither may serve what the other changed.
@Suite("Two hosts on one PostgreSQL database")
struct CrossHostStoreTests {
  let root = "/srv/checklists/data"
  let visitor = VisitorDirectory(
    dataDirectory: "/srv/checklists/data", visitorID: "0123456789abcdef0123456789abcdef")

  private func hosts() throws -> (ChecklistStore, ChecklistStore) {
    let conninfo = try TemporaryPostgres.shared().createDatabase()
    func host(_ name: String) -> ChecklistStore {
      let logger = Logger(label: name)
      return ChecklistStore(
        configuration: .init(
          dataDirectory: root,
          documents: PostgresDocuments(conninfo: conninfo, root: root, logger: logger)),
        logger: logger)
    }
    return (host("host-a"), host("host-b"))
  }

  @Test func aModelCachedOnOneHostIsNeverServedAfterTheOtherChangedIt() throws {
    let (a, b) = try hosts()
    let listID = try a.update(
      visitor, initial: { $0 ?? DataModel() },
      { model in try model.addList(name: "Groceries", icon: .groceries) })
    #expect(try a.load(visitor)?.lists.map(\.name) == ["Groceries"])  // cached on A
    #expect(try b.load(visitor)?.lists.map(\.name) == ["Groceries"])  // cached on B
    for round in 1...20 {
      let (writer, reader) = round % 2 == 0 ? (a, b) : (b, a)
      try writer.update(
        visitor, initial: { $0! },
        { model in _ = try model.addItem(text: "item \(round)", toList: listID) })
      let seen = try #require(try reader.load(visitor)).checklist(id: listID)?.items.count
      #expect(seen == round, "round \(round): the other host's change is seen at once")
    }
  }

  /// A host writes a change worked out on its cached model only if that
  /// is still the stored one; otherwise the change is made again on the
  /// stored model, even one the cached model would have refused.
  @Test func aChangeIsMadeOnTheStoredModelNotOnAStaleCachedOne() throws {
    let (a, b) = try hosts()
    let first = try a.update(
      visitor, initial: { $0 ?? DataModel() },
      { model in try model.addList(name: "Groceries", icon: .groceries) })
    #expect(try b.load(visitor)?.lists.count == 1)  // cached on B
    let second = try a.update(
      visitor, initial: { $0! }, { model in try model.addList(name: "Trip", icon: .none) })
    // B's cached model has no list `second`: the change is made anyway.
    var runs = 0
    try b.update(
      visitor, initial: { $0! },
      { model in
        runs += 1
        _ = try model.addItem(text: "Passport", toList: second)
      })
    #expect(runs == 2)
    // And B's change on a stale model keeps A's change.
    _ = try a.update(
      visitor, initial: { $0! }, { model in try model.addItem(text: "Milk", toList: first) })
    try b.update(
      visitor, initial: { $0! }, { model in _ = try model.addItem(text: "Bread", toList: first) })
    let stored = try #require(try a.load(visitor))
    #expect(stored.checklist(id: first)?.items.map(\.text) == ["Milk", "Bread"])
    #expect(stored.checklist(id: second)?.items.map(\.text) == ["Passport"])
  }

  @Test func changesFromBothHostsAtOnceAreNeverLost() throws {
    let (a, b) = try hosts()
    let listID = try a.update(
      visitor, initial: { $0 ?? DataModel() },
      { model in try model.addList(name: "Counter", icon: .none) })
    let failures = LockedCounter()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      let host = thread % 2 == 0 ? a : b
      for step in 0..<25 {
        do {
          try host.update(
            visitor, initial: { $0! },
            { model in _ = try model.addItem(text: "t\(thread) s\(step)", toList: listID) })
        } catch StoreError.busy(_) {
          failures.add()  // refused at once, nothing written: not counted below
        } catch {
          Issue.record("\(error)")
        }
      }
    }
    let items = try #require(try b.load(visitor)?.checklist(id: listID)).items
    #expect(items.count == 200 - failures.value)
    #expect(Set(items.map(\.text)).count == items.count)
  }
}

/// A counter several threads add to.
final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
