import Documents
import FileSystem
import Foundation
import Support
import TestSupport
import Testing

/// `FileLock`'s two bounds on waiting (issue 11: 64 toggles of one huge
/// visitor parked every worker thread in `flock`). Serialized: both time
/// waits of a few milliseconds.
@Suite(.serialized) struct FileLockTests {
  let data = TemporaryDirectory("file-lock")

  @Test func theThreadBeyondTheLimitIsRefusedAtOnceAndOthersProceed() throws {
    let path = data.appending(".Checklists.lock")
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let ran = LockedValue(0)
    // One holder and limit − 1 waiters.
    for _ in 0..<DocumentLock.maximumThreads {
      finished.enter()
      Thread.detachNewThread {
        defer { finished.leave() }
        try? FileLock.withLock(path) {
          ran.withLock { $0 += 1 }
          if ran.withLock({ $0 }) == 1 { release.wait() }
        }
      }
    }
    try waitUntil { DocumentLock.threads(waitingForOrHolding: path) == DocumentLock.maximumThreads }

    let began = ContinuousClock.now
    #expect(throws: DocumentLock.Busy(path: path, reason: .crowded)) {
      try FileLock.withLock(path) { Issue.record("ran beyond the limit") }
    }
    #expect(ContinuousClock.now - began < .milliseconds(100), "refused without waiting")
    #expect(throws: Never.self, "another lock is free") {
      try FileLock.withLock(data.appending(".Other.lock")) {}
    }

    release.signal()
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(ran.withLock { $0 } == DocumentLock.maximumThreads)
    #expect(DocumentLock.threads(waitingForOrHolding: path) == 0)
    #expect(throws: Never.self) { try FileLock.withLock(path) {} }
  }

  /// Another process's lock is another open file description: a second
  /// `open` + `flock` in this process stands for it.
  @Test func aLockHeldElsewhereIsWaitedForAtMostTheTimeout() throws {
    let path = data.appending(".Checklists.lock")
    let other = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    #expect(other >= 0)
    #expect(flock(other, LOCK_EX) == 0)
    let began = ContinuousClock.now
    #expect(throws: DocumentLock.Busy(path: path, reason: .timedOut)) {
      try FileLock.withLock(path, timeout: .milliseconds(200)) {}
    }
    let waited = ContinuousClock.now - began
    #expect(waited >= .milliseconds(200) && waited < .seconds(2), "\(waited)")
    #expect(DocumentLock.threads(waitingForOrHolding: path) == 0)

    // Released while a thread waits: it gets the lock.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { close(other) }
    #expect(throws: Never.self) { try FileLock.withLock(path, timeout: .seconds(5)) {} }
  }

  private struct TimedOut: Error {}

  private func waitUntil(_ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
      if Date() > deadline { throw TimedOut() }
      usleep(1_000)
    }
  }
}
