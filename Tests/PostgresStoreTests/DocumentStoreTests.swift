import Documents
import FileSystem
import Foundation
import Logging
import PostgresStore
import Support
import TestSupport
import Testing

/// The contract of `DocumentStore`, held by both engines: files in a
/// temporary directory, and PostgreSQL (a fresh database of the test
/// process's throwaway cluster).
@Suite("DocumentStore, on files and on PostgreSQL")
struct DocumentStoreTests {
  @Test(arguments: Engine.allCases)
  func readsWhatWasWritten(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let path = try fixture.prepared("users/ab/key1") + "/Checklists.plist"
    #expect(try fixture.store.snapshot(of: path) == nil)
    #expect(try fixture.store.identity(of: path) == nil)
    try fixture.store.write(Data("first".utf8), to: path, durable: true)
    try fixture.store.replace(Data("second, longer".utf8), at: path, durable: true)
    let snapshot = try #require(try fixture.store.snapshot(of: path))
    #expect(snapshot.contents == Data("second, longer".utf8))
    #expect(try fixture.store.identity(of: path) == snapshot.version)
    #expect(snapshot.version.size == 14)
    try fixture.store.write(Data(), to: path, durable: false)
    #expect(try fixture.store.read(path) == Data())
  }

  @Test(arguments: Engine.allCases)
  func identitiesChangeWithEveryWriteAndNeverRepeat(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let path = try fixture.prepared("users/ab/key1") + "/Checklists.plist"
    var seen: [DocumentVersion] = []
    for round in 0..<10 {
      try fixture.store.write(Data("same".utf8), to: path, durable: true)
      seen.append(try #require(try fixture.store.identity(of: path)))
      try fixture.store.replace(Data("same".utf8), at: path, durable: true)
      seen.append(try #require(try fixture.store.identity(of: path)))
      if round % 3 == 0 {
        try fixture.store.remove(path, durable: true)
        #expect(try fixture.store.create(Data("same".utf8), at: path, durable: true))
        seen.append(try #require(try fixture.store.identity(of: path)))
      }
    }
    #expect(Set(seen).count == seen.count)
  }

  @Test(arguments: Engine.allCases)
  func directoryIdentityChangesWithEveryChangeInIt(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    var seen: [DocumentVersion] = []
    func note() throws {
      seen.append(try #require(fixture.store.identity(ofDirectory: directory)))
      usleep(30_000)  // a file system's clock moves in steps
    }
    try fixture.store.write(Data("a".utf8), to: path, durable: true)
    try note()
    try fixture.store.write(Data("b".utf8), to: path, durable: true)
    try note()
    try fixture.store.write(Data("c".utf8), to: directory + "/Preferences.plist", durable: true)
    try note()
    _ = try fixture.store.setAside(path, durable: true)
    try note()
    try fixture.store.remove(directory + "/Preferences.plist", durable: true)
    try note()
    #expect(Set(seen).count == seen.count)
    let other = try fixture.prepared("users/cd/key2")
    #expect(fixture.store.identity(ofDirectory: other + "/none") == nil)
  }

  @Test(arguments: Engine.allCases)
  func createsOnlyOnce(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let path = try fixture.prepared("secrets") + "/server"
    #expect(try fixture.store.create(Data("one".utf8), at: path, durable: true))
    #expect(try !fixture.store.create(Data("two".utf8), at: path, durable: true))
    #expect(try fixture.store.read(path) == Data("one".utf8))
  }

  @Test(arguments: Engine.allCases)
  func exactlyOneOfEightThreadsCreates(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let path = try fixture.prepared("secrets") + "/server"
    let winners = LockedValue<[Int]>([])
    let failures = concurrently(8) { thread in
      if try fixture.store.create(Data("thread \(thread)".utf8), at: path, durable: true) {
        winners.withLock { $0.append(thread) }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
    let winner = try #require(winners.withLock { $0 }.first)
    #expect(winners.withLock { $0.count } == 1)
    #expect(try fixture.store.read(path) == Data("thread \(winner)".utf8))
  }

  @Test(arguments: Engine.allCases)
  func removingWhatIsMissingIsNoError(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let path = try fixture.prepared("users/ab/key1") + "/Checklists.plist"
    try fixture.store.remove(path, durable: true)
    try fixture.store.write(Data("x".utf8), to: path, durable: true)
    try fixture.store.remove(path, durable: true)
    #expect(try fixture.store.read(path) == nil)
    try fixture.store.remove(path, durable: true)
  }

  @Test(arguments: Engine.allCases)
  func settingAsideKeepsTheBytesUnderANewName(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    try fixture.store.write(Data("broken".utf8), to: path, durable: true)
    let first = try fixture.store.setAside(path, durable: true)
    #expect(first.hasPrefix(path + ".corrupt-"))
    #expect(try fixture.store.read(path) == nil)
    #expect(try fixture.store.read(first) == Data("broken".utf8))
    try fixture.store.write(Data("broken again".utf8), to: path, durable: true)
    let second = try fixture.store.setAside(path, durable: true)
    #expect(second != first)
    #expect(second.hasPrefix(path + ".corrupt-"))
    #expect(try fixture.store.read(second) == Data("broken again".utf8))
    #expect(try fixture.store.read(first) == Data("broken".utf8))
    #expect(throws: DocumentError.self) { try fixture.store.setAside(path, durable: true) }
  }

  @Test(arguments: Engine.allCases)
  func listsDocumentsAndDirectories(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    for (directory, name) in [
      ("users/ab/key1", "Checklists.plist"), ("users/ab/key1", "Preferences.plist"),
      ("users/cd/key2", "Checklists.plist"), ("users/ab/key3", "Checklists.plist"),
      ("shares/00", "token"),
    ] {
      let path = try fixture.prepared(directory) + "/" + name
      try fixture.store.write(Data(name.utf8), to: path, durable: false)
    }
    try fixture.store.write(Data("s".utf8), to: fixture.root + "/secret", durable: false)
    let store = fixture.store
    #expect(store.entries(ofDirectory: fixture.root) == ["secret", "shares", "users"])
    #expect(store.entries(ofDirectory: fixture.root + "/users") == ["ab", "cd"])
    #expect(store.entries(ofDirectory: fixture.root + "/users/ab") == ["key1", "key3"])
    #expect(
      store.entries(ofDirectory: fixture.root + "/users/ab/key1") == [
        "Checklists.plist", "Preferences.plist",
      ])
    #expect(store.entries(ofDirectory: fixture.root + "/users/zz").isEmpty)
  }

  /// Threads reading at once each get their own document (on PostgreSQL
  /// they share statements), whatever its name holds, in an owner's
  /// directory or the data directory itself; a change is read at once.
  @Test(arguments: Engine.allCases)
  func threadsReadingAtOnceEachGetTheirOwn(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let names = [#"quote" and \ back"#, "comma, {brace}", "é ü", "plain", "NULL", ""]
    var paths: [String] = []
    for (index, name) in names.enumerated() {
      let directory = try fixture.prepared("users/ab/key \(index) \(name)")
      paths.append(directory + "/doc \(name)")
    }
    paths.append(fixture.root + "/secret")
    for (index, path) in paths.enumerated() {
      try fixture.store.write(Data("\(index)".utf8), to: path, durable: false)
    }
    let written = paths
    let failures = concurrently(16) { thread in
      let paths = written
      for round in 0..<30 {
        let index = (thread + round) % paths.count
        let path = paths[index]
        let snapshot = try #require(try fixture.store.snapshot(of: path))
        #expect(snapshot.contents == Data("\(index)".utf8), "\(path)")
        #expect(try fixture.store.identity(of: path) == snapshot.version, "\(path)")
        let directory = (path as NSString).deletingLastPathComponent
        #expect(fixture.store.identity(ofDirectory: directory) != nil, "\(directory)")
        #expect(try fixture.store.identity(of: path + ".missing") == nil)
      }
    }
    #expect(failures.isEmpty, "\(failures)")
    let before = try #require(try fixture.store.identity(of: paths[0]))
    let changed = try fixture.store.write(Data("changed".utf8), to: paths[0], durable: false)
    #expect(try fixture.store.identity(of: paths[0]) == changed)
    #expect(changed != before)
  }

  @Test(arguments: Engine.allCases)
  func aLockSerialisesEightThreads(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let counter = directory + "/Counter"
    let lock = directory + "/.lock"
    let failures = concurrently(8) { _ in
      var done = 0
      while done < 50 {
        do {
          try fixture.store.withLock(lock) {
            let count = try fixture.store.read(counter).map {
              Int(String(decoding: $0, as: UTF8.self))!
            }
            try fixture.store.replace(
              Data(String((count ?? 0) + 1).utf8), at: counter, durable: false)
          }
          done += 1
        } catch let busy as DocumentLock.Busy where busy.reason == .crowded {
          usleep(200)  // four threads already wait for it
        }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(try fixture.store.read(counter) == Data("400".utf8))
  }

  @Test(arguments: Engine.allCases)
  func aThrowingBodyIsRolledBackInTheDatabase(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    try fixture.store.write(Data("before".utf8), to: path, durable: true)
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try fixture.store.withLock(directory + "/.lock") {
        try fixture.store.write(Data("during".utf8), to: path, durable: true)
        try fixture.store.write(Data("new".utf8), to: directory + "/Other", durable: true)
        throw Refused()
      }
    }
    if engine == .postgres {
      #expect(try fixture.store.read(path) == Data("before".utf8))
      #expect(try fixture.store.read(directory + "/Other") == nil)
    } else {  // a file system keeps what was written: bodies write last
      #expect(try fixture.store.read(path) == Data("during".utf8))
    }
    // The thread's connection is usable again at once.
    try fixture.store.withLock(directory + "/.lock") {
      try fixture.store.write(Data("after".utf8), to: path, durable: true)
    }
    #expect(try fixture.store.read(path) == Data("after".utf8))
  }

  @Test(arguments: Engine.allCases)
  func locksNest(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let first = try fixture.prepared("users/ab/key1")
    let second = try fixture.prepared("users/cd/key2")
    try fixture.store.withLock(first + "/.lock") {
      try fixture.store.write(Data("outer".utf8), to: first + "/A", durable: true)
      try fixture.store.withLock(second + "/.lock") {
        try fixture.store.write(Data("inner".utf8), to: second + "/B", durable: true)
      }
      #expect(try fixture.store.read(second + "/B") == Data("inner".utf8))
    }
    #expect(try fixture.store.read(first + "/A") == Data("outer".utf8))
    #expect(try fixture.store.read(second + "/B") == Data("inner".utf8))
  }

  @Test(arguments: Engine.allCases)
  func aLockHeldElsewhereTimesOut(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let first = try fixture.prepared("users/ab/key1")
    let second = try fixture.prepared("users/cd/key2")
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = Thread {
      try? fixture.store.withLock(second + "/.lock") {
        held.signal()
        release.wait()
      }
    }
    holder.start()
    held.wait()
    defer { release.signal() }
    let clock = ContinuousClock()
    let start = clock.now
    #expect(throws: DocumentLock.Busy(path: second + "/.lock", reason: .timedOut)) {
      try fixture.store.withLock(second + "/.lock", timeout: .milliseconds(200)) {}
    }
    #expect(clock.now - start >= .milliseconds(150))
    // Timing out inside another lock leaves the outer one usable.
    try fixture.store.withLock(first + "/.lock") {
      #expect(throws: DocumentLock.Busy.self) {
        try fixture.store.withLock(second + "/.lock", timeout: .milliseconds(50)) {}
      }
      try fixture.store.write(Data("kept".utf8), to: first + "/A", durable: true)
    }
    #expect(try fixture.store.read(first + "/A") == Data("kept".utf8))
  }
}

/// The engines a `DocumentStore` test runs on.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case files, postgres
  var testDescription: String { rawValue }
}

/// A store of one engine over a fresh data directory: a temporary
/// directory, or a fresh database (whose paths start with a root that is
/// never made on disk).
final class StoreFixture: Sendable {
  let store: any DocumentStore
  let root: String
  let conninfo: String?
  private let directory: TemporaryDirectory?

  init(_ engine: Engine) throws {
    switch engine {
    case .files:
      let directory = TemporaryDirectory("document-store")
      self.directory = directory
      root = directory.path
      conninfo = nil
      store = LocalDocuments()
    case .postgres:
      directory = nil
      // A root of its own: a process counts the threads at a lock by its
      // path (`DocumentLock.admitting`), and tests run at once.
      root = "/srv/checklists-\(UUID().uuidString)/data"
      let conninfo = try TemporaryPostgres.shared().createDatabase()
      self.conninfo = conninfo
      store = PostgresDocuments(
        conninfo: conninfo, root: root, logger: Logger(label: "postgres-store-tests"))
    }
  }

  /// `root/relative`, made ready for documents.
  func prepared(_ relative: String) throws -> String {
    let path = root + "/" + relative
    if directory != nil {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    try store.prepareDirectory(path, durable: false)
    return path
  }
}

/// Runs `body` on `count` new threads at once and waits for them all;
/// returns what they threw.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [any Error] {
  let failures = LockedValue<[any Error]>([])
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      defer { group.leave() }
      do { try body(index) } catch { failures.withLock { $0.append(error) } }
    }
    thread.start()
  }
  group.wait()
  return failures.withLock { $0 }
}
