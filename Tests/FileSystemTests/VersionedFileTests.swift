import Documents
import FileSystem
import Foundation
import Support
import TestSupport
import Testing

/// The one decoded-file cache: a value is kept while the file is the
/// version it was decoded from, another writer's version is decoded, and an
/// undecodable version is set aside once, under the lock, only if unchanged.
@Suite struct VersionedFileTests {
  let directory = TemporaryDirectory("versioned-file")
  var path: String { directory.appending("Value.txt") }
  var lockPath: String { directory.appending(".Value.lock") }

  /// The file format of these tests: `v:` and a text.
  struct NotAValue: Error {}
  struct FromTheFuture: Error {}

  /// A `VersionedFile` of texts that counts its decodes.
  final class Texts: Sendable {
    let decodes = LockedValue(0)
    let file: VersionedFile<String>

    init(capacity: Int = 10, budget: Int = .max, footprint: MemoryFootprint = .uncounted) {
      let decodes = self.decodes
      file = VersionedFile(
        documents: LocalDocuments(), lockName: ".Value.lock", cacheCapacity: capacity,
        cacheBudget: budget, footprint: footprint,
        decode: { bytes in
          decodes.withLock { $0 += 1 }
          let text = String(decoding: bytes, as: UTF8.self)
          if text.hasPrefix("future:") { throw FromTheFuture() }
          guard text.hasPrefix("v:") else { throw NotAValue() }
          return String(text.dropFirst(2))
        },
        keepsInPlace: { $0 is FromTheFuture })
    }

    var decodeCount: Int { decodes.withLock { $0 } }
  }

  private func write(_ text: String, to path: String) throws {
    try AtomicFile.write(Data(text.utf8), to: path, durable: false)
  }

  private func setAsideCopies() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.contains(".corrupt-") }
  }

  @Test func theCacheIsBoundedByTheBytesItsValuesAreTakenToCost() throws {
    // Each value is taken to cost 100 + 10 bytes per stored byte.
    let footprint = MemoryFootprint(perStoredKiB: 10_240, perEntry: 100)
    let texts = Texts(capacity: .max, budget: 1_000, footprint: footprint)
    let paths = (0..<5).map { directory.appending("Value\($0).txt") }
    for number in 0..<4 {
      try write("v:\(number)1234567", to: paths[number])  // 10 bytes: 200 each
      #expect(try texts.file.load(paths[number], key: "\(number)")?.value == "\(number)1234567")
    }
    #expect(texts.file.cachedUsage == (bytes: 800, entries: 4))
    // A new version of 1, of 30 bytes (400), takes the place of its old one: it just fits.
    try write("v:" + String(repeating: "x", count: 28), to: paths[1])
    _ = try texts.file.load(paths[1], key: "1")
    _ = try texts.file.load(paths[2], key: "2")  // kept: used again, not decoded
    #expect(texts.file.cachedUsage == (bytes: 1_000, entries: 4))
    #expect(texts.decodeCount == 5)
    // A new key forgets the least recently used (0); 0 again forgets the next one (3).
    try write("v:41234567", to: paths[4])
    _ = try texts.file.load(paths[4], key: "4")
    #expect(texts.file.cachedIdentity(forKey: "0") == nil)
    #expect(try texts.file.load(paths[0], key: "0")?.value == "01234567")
    #expect(texts.decodeCount == 7)
    #expect(texts.file.cachedUsage == (bytes: 1_000, entries: 4))
    #expect(texts.file.cachedIdentity(forKey: "3") == nil)
    #expect(texts.file.cachedIdentity(forKey: "2") != nil)
    // A value over the whole budget is read and given, never kept.
    try write("v:" + String(repeating: "y", count: 98), to: paths[3])
    #expect(try texts.file.load(paths[3], key: "3")?.value.count == 98)
    #expect(texts.file.cachedIdentity(forKey: "3") == nil)
    #expect(texts.file.cachedUsage == (bytes: 1_000, entries: 4))
  }

  @Test func aMissingFileHasNoValue() throws {
    let texts = Texts()
    #expect(try texts.file.load(path, key: "a") == nil)
    #expect(texts.decodeCount == 0)
  }

  @Test func theCachedValueServesWhileTheFileIsUnchanged() throws {
    let texts = Texts()
    try write("v:one", to: path)
    let first = try #require(try texts.file.load(path, key: "a"))
    #expect(first.value == "one")
    #expect(first.identity == (try FileIdentity.of(path))?.documentVersion)
    for _ in 0..<3 { #expect(try texts.file.load(path, key: "a")?.value == "one") }
    #expect(texts.decodeCount == 1)
    #expect(texts.file.cachedIdentity(forKey: "a") == first.identity)
  }

  @Test func anotherWritersVersionIsDecoded() throws {
    let mine = Texts()
    let theirs = Texts()  // another process: its own cache of the same file
    try write("v:one", to: path)
    #expect(try mine.file.load(path, key: "a")?.value == "one")

    try write("v:two", to: path)  // written directly, as another program would
    #expect(try mine.file.load(path, key: "a")?.value == "two")
    #expect(mine.decodeCount == 2)

    // A writer that caches what it wrote decodes nothing; the other one does.
    try FileLock.withLock(lockPath) {
      let identity = try LocalDocuments().write(Data("v:three".utf8), to: path, durable: false)
      theirs.file.cacheWritten("three", identity: identity, key: "a")
    }
    #expect(try theirs.file.load(path, key: "a")?.value == "three")
    #expect(theirs.decodeCount == 0)
    #expect(try mine.file.load(path, key: "a")?.value == "three")
    #expect(mine.decodeCount == 3)

    try FileManager.default.removeItem(atPath: path)
    #expect(try mine.file.load(path, key: "a") == nil)
    #expect(mine.file.cachedIdentity(forKey: "a") == nil)
  }

  @Test func anUndecodableFileIsSetAsideOnce() throws {
    let texts = Texts()
    try write("garbage", to: path)
    let error = #expect(throws: VersionedFileError.self) { try texts.file.load(path, key: "a") }
    guard case .setAside(let failed, let keptAs, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(failed == path)
    #expect(keptAs.hasPrefix(path + ".corrupt-"))
    #expect(reason is NotAValue)
    #expect(FileManager.default.contents(atPath: keptAs) == Data("garbage".utf8))
    #expect(try texts.file.load(path, key: "a") == nil)
    #expect(try setAsideCopies().count == 1)
  }

  /// A file its decoder refuses without calling it corrupt stays in place.
  @Test func aFileTheDecoderKeepsInPlaceIsNotMoved() throws {
    let texts = Texts()
    try write("future:v9", to: path)
    let error = #expect(throws: VersionedFileError.self) { try texts.file.load(path, key: "a") }
    guard case .leftInPlace(let failed, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(failed == path)
    #expect(reason is FromTheFuture)
    #expect(FileManager.default.contents(atPath: path) == Data("future:v9".utf8))
    #expect(try setAsideCopies().isEmpty)
  }

  /// The set-aside waits for the writers' lock; a good version written
  /// under it meanwhile is read, not moved aside.
  @Test func theSetAsideWaitsForTheLockAndKeepsAVersionWrittenMeanwhile() throws {
    let texts = Texts()
    try write("garbage", to: path)
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let writer = Thread { [path, lockPath] in
      try? FileLock.withLock(lockPath) {
        held.signal()
        release.wait()
        try AtomicFile.write(Data("v:good".utf8), to: path, durable: false)
      }
    }
    writer.start()
    held.wait()

    let loaded = LockedValue<Result<String?, VersionedFileError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread { [path] in
      let result = Result { () throws(VersionedFileError) -> String? in
        try texts.file.load(path, key: "a")?.value
      }
      loaded.withLock { $0 = result }
      done.signal()
    }.start()
    Thread.sleep(forTimeInterval: 0.3)
    #expect(loaded.withLock { $0 } == nil, "the load did not wait for the lock")
    #expect(FileManager.default.contents(atPath: path) == Data("garbage".utf8))

    release.signal()
    #expect(done.wait(timeout: .now() + 10) == .success)
    let result = try #require(loaded.withLock { $0 })
    #expect(try result.get() == "good")
    #expect(try setAsideCopies().isEmpty, "the good version was not moved aside")
  }

  /// A caller that holds the lock sets an undecodable version aside without
  /// taking it again (a second `flock` would wait for the first).
  @Test func aLockedLoadSetsAsideUnderTheCallersLock() throws {
    let texts = Texts()
    try write("garbage", to: path)
    let began = ContinuousClock.now
    let error = try FileLock.withLock(lockPath, timeout: .milliseconds(500)) {
      #expect(throws: VersionedFileError.self) { try texts.file.loadLocked(path, key: "a") }
    }
    #expect(ContinuousClock.now - began < .milliseconds(500))
    guard case .setAside? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(try setAsideCopies().count == 1)
    #expect(try texts.file.loadLocked(path, key: "a") == nil)
  }

  @Test func theCacheKeepsTheMostRecentlyUsedKeys() throws {
    let texts = Texts(capacity: 2)
    let paths = (0..<3).map { directory.appending("value-\($0).txt") }
    for (index, path) in paths.enumerated() { try write("v:\(index)", to: path) }
    for (index, path) in paths.enumerated() {
      #expect(try texts.file.load(path, key: "k\(index)")?.value == "\(index)")
    }
    #expect(texts.file.cachedCount == 2)
    #expect(texts.decodeCount == 3)
    #expect(try texts.file.load(paths[2], key: "k2")?.value == "2")
    #expect(texts.decodeCount == 3, "still cached")
    #expect(try texts.file.load(paths[0], key: "k0")?.value == "0")
    #expect(texts.decodeCount == 4, "the least recently used was forgotten")
    texts.file.removeAllCached()
    #expect(texts.file.cachedCount == 0)
  }

  /// A caller that expects a writer of its own to cache the new version
  /// looks again instead of decoding, as many times as it allows.
  @Test func aLoadAwaitingAWriterLooksAgainAtMostItsAttempts() throws {
    let texts = Texts()
    try write("v:one", to: path)
    let first = try #require(try texts.file.load(path, key: "a"))
    try write("v:two", to: path)
    var seen: [(Int, DocumentVersion?)] = []
    let error = #expect(throws: VersionedFileError.self) {
      try texts.file.load(path, key: "a", attempts: 3) { attempt, cached in
        seen.append((attempt, cached))
        return true
      }
    }
    guard case .unsettled(let failed)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(failed == path)
    #expect(seen.map(\.0) == [0, 1, 2])
    #expect(seen.allSatisfy { $0.1 == first.identity })
    #expect(texts.decodeCount == 1)
    let loaded = try texts.file.load(path, key: "a", attempts: 3) { attempt, _ in attempt < 1 }
    #expect(loaded?.value == "two")
  }
}
