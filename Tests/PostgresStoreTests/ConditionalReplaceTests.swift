import Documents
import FileSystem
import Foundation
import Testing

/// `DocumentStore.replace(_:at:ifStill:…)`, the write of a change worked
/// out without the lock, on both engines: it writes only over the version
/// it was given, and never between what a lock's holder reads and writes.
@Suite("Replacing a document only if it is still a version")
struct ConditionalReplaceTests {
  @Test(arguments: Engine.allCases)
  func writesOverTheVersionGivenOnly(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    let lock = directory + "/.lock"
    let first = try fixture.store.write(Data("first".utf8), to: path, durable: true)
    let second = try #require(
      try fixture.store.replace(
        Data("second".utf8), at: path, ifStill: first, lockPath: lock, timeout: .seconds(5),
        durable: true
      ).written)
    #expect(second != first)
    #expect(try fixture.store.identity(of: path) == second)
    #expect(try fixture.store.read(path) == Data("second".utf8))
    // `first` is gone: nothing is written over `second`, which is told.
    let stale = try fixture.store.replace(
      Data("stale".utf8), at: path, ifStill: first, lockPath: lock, timeout: .seconds(5),
      durable: true)
    #expect(stale.written == nil)
    #expect(stale.found?.contents == Data("second".utf8))
    #expect(stale.found?.version == second)
    #expect(try fixture.store.read(path) == Data("second".utf8))
    #expect(try fixture.store.identity(of: path) == second)
    // Nor over a document that is gone.
    try fixture.store.remove(path, durable: true)
    let removed = try fixture.store.replace(
      Data("removed".utf8), at: path, ifStill: second, lockPath: lock, timeout: .seconds(5),
      durable: true)
    #expect(removed.written == nil)
    #expect(removed.found == nil)
    #expect(try fixture.store.read(path) == nil)
  }

  /// A holder of the lock reads a version, then writes: a conditional
  /// replace of that version sent meanwhile waits for the lock, then finds
  /// the holder's version, writes nothing and tells it.
  @Test(arguments: Engine.allCases)
  func neverComesBetweenALockHoldersReadAndWrite(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    let lock = directory + "/.lock"
    try fixture.store.write(Data("before".utf8), to: path, durable: true)
    let read = DispatchSemaphore(value: 0)
    let holder = Thread {
      try? fixture.store.withLock(lock) {
        let seen = try fixture.store.identity(of: path)
        read.signal()
        usleep(300_000)  // the replace below is sent meanwhile
        #expect(try fixture.store.identity(of: path) == seen)
        try fixture.store.replace(Data("holder".utf8), at: path, durable: true)
      }
    }
    let seen = try #require(try fixture.store.identity(of: path))
    holder.start()
    read.wait()
    let replaced = try fixture.store.replace(
      Data("meanwhile".utf8), at: path, ifStill: seen, lockPath: lock, timeout: .seconds(5),
      durable: true)
    #expect(replaced.written == nil)
    #expect(replaced.found?.contents == Data("holder".utf8))
    #expect(try fixture.store.read(path) == Data("holder".utf8))
  }

  /// Eight threads add one to a counter 40 times each, half under the
  /// lock and half by conditional replaces, each tried again on the
  /// version the last one found until one writes: not one addition is
  /// lost.
  @Test(arguments: Engine.allCases)
  func locksAndConditionalReplacesLoseNoChange(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let counter = directory + "/Counter"
    let lock = directory + "/.lock"
    try fixture.store.write(Data("0".utf8), to: counter, durable: false)
    @Sendable func count(_ bytes: Data?) -> Int {
      Int(String(decoding: bytes ?? Data(), as: UTF8.self))!
    }
    let failures = concurrently(8) { thread in
      var done = 0
      while done < 40 {
        do {
          if thread % 2 == 0 {
            try fixture.store.withLock(lock) {
              let value = count(try fixture.store.read(counter))
              try fixture.store.replace(Data(String(value + 1).utf8), at: counter, durable: false)
            }
            done += 1
          } else {
            var base = try #require(try fixture.store.snapshot(of: counter))
            while true {
              let next = Data(String(count(base.contents) + 1).utf8)
              let outcome = try fixture.store.replace(
                next, at: counter, ifStill: base.version, lockPath: lock,
                timeout: .seconds(5), durable: false)
              if outcome.written != nil { break }
              base = try #require(outcome.found)
            }
            done += 1
          }
        } catch let busy as DocumentLock.Busy where busy.reason == .crowded {
          usleep(200)  // four threads already wait for it
        }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(try fixture.store.read(counter) == Data("320".utf8))
  }

  /// Inside another lock of the same thread (an import's), it is part of
  /// that lock's work.
  @Test(arguments: Engine.allCases)
  func worksInsideAnotherLock(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    let lock = directory + "/.lock"
    let first = try fixture.store.write(Data("first".utf8), to: path, durable: true)
    let written = try fixture.store.withLock(directory + "/.other-lock") {
      try fixture.store.replace(
        Data("inside".utf8), at: path, ifStill: first, lockPath: lock, timeout: .seconds(5),
        durable: true
      ).written
    }
    #expect(written != nil)
    #expect(try fixture.store.identity(of: path) == written)
    #expect(try fixture.store.read(path) == Data("inside".utf8))
  }
}

extension ConditionalReplace {
  /// The identity written; nil when nothing was.
  var written: DocumentVersion? {
    if case .written(let identity) = self { identity } else { nil }
  }

  /// The version found in place of the one expected; nil when it wrote,
  /// or the document is gone.
  var found: DocumentSnapshot? {
    if case .replaced(let snapshot) = self { snapshot } else { nil }
  }
}
