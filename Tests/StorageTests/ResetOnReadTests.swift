import ChecklistsModel
import Documents
import Foundation
import Logging
import Storage
import Synchronization
import TestSupport
import Testing

/// A scheduled reset made by the first read after its boundary
/// (`ChecklistStore.loadVersioned`) when the owner's lock is busy: the
/// reader answers with the reset applied in memory (never `.busy`, which a
/// page would answer with 503), writes nothing, and the reset is written
/// once, by the next reader that gets the lock.
@Suite struct ResetOnReadTests {
  /// A clock the test moves.
  final class TestClock: Sendable {
    private let instant: Mutex<Date>
    init(_ date: Date) { instant = Mutex(date) }
    var now: Date { instant.withLock { $0 } }
    func set(_ date: Date) { instant.withLock { $0 = date } }
  }

  static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  /// Sunday noon; the rule resets every day at 06:00 UTC.
  static let saved = utc("2026-11-29T12:00:00Z")
  static let boundary = utc("2026-11-30T06:00:00Z")

  let temporary = TemporaryDirectory("reset-on-read")

  private func makeStore(_ clock: TestClock) -> ChecklistStore {
    ChecklistStore(
      configuration: .init(dataDirectory: temporary.path, durable: false, clock: { clock.now }),
      logger: Logger(label: "ResetOnReadTests"))
  }

  private var owner: VisitorDirectory {
    VisitorDirectory(dataDirectory: temporary.path, visitorID: "0123456789abcdef0123456789abcdef")
  }

  /// Stores a list of two checked items that resets every day at 06:00 UTC.
  private func storeCheckedList(_ store: ChecklistStore) throws -> Int {
    try store.update(owner, at: Self.saved) { model in
      let list = try model.addList(name: "Chores", icon: .folder)
      for text in ["Dishes", "Laundry"] {
        let item = try model.addItem(text: text, toList: list)
        try model.toggleItem(id: item, inList: list)
      }
      let daily = try #require(ResetClock(days: .everyDay, hour: 6, minute: 0, zone: "UTC"))
      try model.setResetRule(.clock(daily), ofList: list)
      return list
    }
  }

  private func storedBytes() throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: owner.checklistsPath))
  }

  /// The lock held by one thread of this process while `waiting` more wait
  /// for it, until `body` returns. Each takes it with `timeout`.
  private func holdingLock<T>(
    _ documents: any DocumentStore, waiting: Int, timeout: Duration = DocumentLock.defaultTimeout,
    _ body: () throws -> T
  ) rethrows -> T {
    let lockPath = owner.lockPath
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    // Threads of their own: each blocks, which a shared queue's few
    // threads should not. The holder takes the lock before the others ask.
    Thread {
      _ = try? documents.withLock(lockPath, timeout: timeout) {
        held.signal()
        release.wait()
      }
      finished.signal()
    }.start()
    held.wait()
    for _ in 0..<waiting {
      Thread {
        _ = try? documents.withLock(lockPath, timeout: timeout) {}
        finished.signal()
      }.start()
    }
    while DocumentLock.threads(waitingForOrHolding: lockPath) < waiting + 1 {
      usleep(1_000)
    }
    defer {
      release.signal()
      for _ in 0...waiting { finished.wait() }
    }
    return try body()
  }

  /// One read after the boundary while every thread this process allows
  /// already waits for the lock (as when many of one owner's pages are
  /// asked for at a boundary): refused at once as `.crowded` before the fix.
  @Test func aReaderFindingTheLockCrowdedAnswersWithTheResetInMemory() throws {
    let clock = TestClock(Self.saved)
    let store = makeStore(clock)
    let list = try storeCheckedList(store)
    let before = try store.loadVersioned(owner)
    let beforeBytes = try storedBytes()
    let revision = try #require(before.model?.checklist(id: list)?.changes.revision)
    #expect(before.model?.checklist(id: list)?.items.map(\.checked) == [true, true])

    clock.set(Self.boundary.addingTimeInterval(30))
    let documents = store.configuration.documents
    let read = try holdingLock(documents, waiting: DocumentLock.maximumThreads - 1) {
      try store.loadVersioned(owner)
    }
    let shown = try #require(read.model?.checklist(id: list))
    #expect(shown.items.map(\.checked) == [false, false])
    #expect(shown.reset?.lastReset == Self.boundary)
    #expect(shown.reset?.due == Self.boundary.addingTimeInterval(86_400))
    // Nothing written: the stored file and its version are as they were.
    #expect(read.version == before.version)
    #expect(try storedBytes() == beforeBytes)

    // The next reader that gets the lock writes the reset, once.
    let written = try store.loadVersioned(owner)
    #expect(written.version != before.version)
    let stored = try #require(try makeStore(clock).load(owner)?.checklist(id: list))
    #expect(stored.items.map(\.checked) == [false, false])
    #expect(stored.reset?.lastReset == Self.boundary)
    #expect(stored.changes.revision == revision + 1)
    let again = try makeStore(clock).loadVersioned(owner)
    #expect(again.version == written.version)
    #expect(try makeStore(clock).load(owner)?.checklist(id: list)?.changes.revision == revision + 1)
  }

  /// One read after the boundary while another holds the lock for longer
  /// than a reader waits (another host's change, on a database's lock):
  /// `.timedOut`, answered the same way.
  @Test func aReaderWaitingOutTheLockAnswersWithTheResetInMemory() throws {
    let clock = TestClock(Self.saved)
    let store = makeStore(clock)
    let list = try storeCheckedList(store)
    let before = try store.loadVersioned(owner)
    let beforeBytes = try storedBytes()

    clock.set(Self.boundary.addingTimeInterval(30))
    let documents = store.configuration.documents
    let started = ContinuousClock.now
    let read = try holdingLock(documents, waiting: 0) { try store.loadVersioned(owner) }
    #expect(ContinuousClock.now - started >= DocumentLock.defaultTimeout)
    #expect(read.model?.checklist(id: list)?.items.map(\.checked) == [false, false])
    #expect(read.model?.checklist(id: list)?.reset?.lastReset == Self.boundary)
    #expect(read.version == before.version)
    #expect(try storedBytes() == beforeBytes)

    let written = try #require(try makeStore(clock).load(owner)?.checklist(id: list))
    #expect(written.items.map(\.checked) == [false, false])
    #expect(written.reset?.lastReset == Self.boundary)
  }

  /// A reader before the boundary, lock busy or not, changes nothing.
  @Test func noResetBeforeTheBoundaryEvenWhenTheLockIsBusy() throws {
    let clock = TestClock(Self.saved)
    let store = makeStore(clock)
    let list = try storeCheckedList(store)
    let beforeBytes = try storedBytes()
    clock.set(Self.boundary.addingTimeInterval(-1))
    let read = try holdingLock(
      store.configuration.documents, waiting: DocumentLock.maximumThreads - 1
    ) {
      try store.loadVersioned(owner)
    }
    #expect(read.model?.checklist(id: list)?.items.map(\.checked) == [true, true])
    #expect(try storedBytes() == beforeBytes)
  }
}
