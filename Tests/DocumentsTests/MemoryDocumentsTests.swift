import Documents
import Foundation
import Support
import Testing

/// The seam's contract, on the engine in memory: what `LocalDocuments` and
/// `PostgresDocuments` are tested for against files and a server.
@Suite struct MemoryDocumentsTests {
  let store = MemoryDocuments()
  let directory = "/data/users/ab/owner"
  var path: String { directory + "/Checklists.plist" }
  var lockPath: String { directory + "/.lock" }

  @Test func aWriteIsReadBackWithTheVersionItReturned() throws {
    #expect(try store.snapshot(of: path) == nil)
    #expect(try store.identity(of: path) == nil)
    let written = try store.write(Data("first".utf8), to: path, durable: true)
    let snapshot = try #require(try store.snapshot(of: path))
    #expect(snapshot.contents == Data("first".utf8))
    #expect(snapshot.version == written)
    #expect(written.size == 5)
    #expect(try store.read(path) == Data("first".utf8))
  }

  @Test func versionsNeverRepeat() throws {
    var seen: Set<DocumentVersion> = []
    for round in 0..<5 {
      seen.insert(try store.write(Data("same".utf8), to: path, durable: false))
      seen.insert(try store.replace(Data("same".utf8), at: path, durable: false))
      try store.remove(path, durable: false)
      #expect(seen.count == 2 * (round + 1))
    }
  }

  @Test func theDirectorysVersionMovesWithEveryChangeInIt() throws {
    #expect(store.identity(ofDirectory: directory) == nil)
    #expect(try !store.directoryExists(directory))
    try store.write(Data("a".utf8), to: path, durable: true)
    let first = try #require(store.identity(ofDirectory: directory))
    try store.write(Data("b".utf8), to: directory + "/Preferences.plist", durable: true)
    let second = try #require(store.identity(ofDirectory: directory))
    try store.remove(path, durable: true)
    let third = try #require(store.identity(ofDirectory: directory))
    #expect(Set([first, second, third]).count == 3)
    #expect(try store.directoryExists(directory))
  }

  @Test func onlyTheFirstCreateWins() throws {
    #expect(try store.create(Data("one".utf8), at: path, durable: true))
    #expect(try !store.create(Data("two".utf8), at: path, durable: true))
    #expect(try store.read(path) == Data("one".utf8))
  }

  @Test func removingWhatIsNotThereIsNoError() throws {
    try store.remove(path, durable: true)
    #expect(try store.read(path) == nil)
  }

  @Test func settingAsideKeepsTheBytesUnderANewName() throws {
    try store.write(Data("bad".utf8), to: path, durable: true)
    let first = try store.setAside(path, durable: true)
    try store.write(Data("bad again".utf8), to: path, durable: true)
    let second = try store.setAside(path, durable: true)
    #expect(first.hasPrefix(path + ".corrupt-"))
    #expect(first != second, "an earlier one is never overwritten")
    #expect(try store.read(first) == Data("bad".utf8))
    #expect(try store.read(second) == Data("bad again".utf8))
    #expect(try store.read(path) == nil)
    let missing = #expect(throws: DocumentError.self) { try store.setAside(path, durable: true) }
    #expect(missing?.reason == .notFound)
  }

  @Test func entriesAreTheNamesAndSubdirectoriesSorted() throws {
    try store.write(Data(), to: "/data/users/ab/one/Checklists.plist", durable: false)
    try store.write(Data(), to: "/data/users/cd/two/Checklists.plist", durable: false)
    try store.write(Data(), to: "/data/users/secret", durable: false)
    #expect(store.entries(ofDirectory: "/data/users") == ["ab", "cd", "secret"])
    #expect(store.entries(ofDirectory: "/data/none").isEmpty)
  }

  @Test func locksNestOnOneThread() throws {
    let value = try store.withLock(lockPath) {
      try store.withLock(lockPath) { 42 }
    }
    #expect(value == 42)
  }

  @Test func aLockHeldElsewhereTimesOut() throws {
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [store, lockPath] in
      try? store.withLock(lockPath) {
        held.signal()
        release.wait()
      }
    }
    held.wait()
    defer { release.signal() }
    #expect(throws: DocumentLock.Busy(path: lockPath, reason: .timedOut)) {
      try store.withLock(lockPath, timeout: .milliseconds(50)) {}
    }
  }

  @Test func aLockAdmitsAtMostItsThreads() throws {
    let lock = directory + "/.crowded.lock"
    let waiting = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<DocumentLock.maximumThreads {
      Thread.detachNewThread { [store] in
        try? store.withLock(lock) {
          waiting.signal()
          release.wait()
        }
      }
    }
    waiting.wait()  // one holds it; the others wait for it
    while DocumentLock.threads(waitingForOrHolding: lock) < DocumentLock.maximumThreads {
      usleep(1_000)
    }
    #expect(throws: DocumentLock.Busy(path: lock, reason: .crowded)) {
      try store.withLock(lock) {}
    }
    for _ in 0..<DocumentLock.maximumThreads { release.signal() }
  }

  @Test func aConditionalReplaceWritesOnlyOverTheExpectedVersion() throws {
    let first = try store.write(Data("1".utf8), to: path, durable: true)
    let second = try store.write(Data("2".utf8), to: path, durable: true)
    let stale = try store.replace(
      Data("3".utf8), at: path, ifStill: first, lockPath: lockPath,
      timeout: DocumentLock.defaultTimeout, durable: true)
    guard case .replaced(let found) = stale else {
      Issue.record("a stale version was written over")
      return
    }
    #expect(found?.version == second && found?.contents == Data("2".utf8))
    let current = try store.replace(
      Data("3".utf8), at: path, ifStill: second, lockPath: lockPath,
      timeout: DocumentLock.defaultTimeout, durable: true)
    guard case .written(let version) = current else {
      Issue.record("the expected version was not replaced")
      return
    }
    #expect(try store.identity(of: path) == version)
    #expect(try store.read(path) == Data("3".utf8))
  }
}
