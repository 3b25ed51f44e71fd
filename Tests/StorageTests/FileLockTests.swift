import Foundation
import XCTest

@testable import Storage

/// `FileLock`'s two bounds on waiting (issue 11: 64 toggles of one huge
/// visitor parked every worker thread in `flock`).
final class FileLockTests: XCTestCase {
  func testTheThreadBeyondTheLimitIsRefusedAtOnceAndOthersProceed() throws {
    let data = try makeDataDirectory(self)
    let path = data + "/.Checklists.lock"
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let ran = LockedValue(0)
    // One holder and limit − 1 waiters.
    for _ in 0..<FileLock.maximumThreads {
      finished.enter()
      Thread.detachNewThread {
        defer { finished.leave() }
        try? FileLock.withLock(path) {
          ran.withLock { $0 += 1 }
          if ran.withLock({ $0 }) == 1 { release.wait() }
        }
      }
    }
    try waitUntil { FileLock.threads(waitingForOrHolding: path) == FileLock.maximumThreads }

    let began = ContinuousClock.now
    XCTAssertThrowsError(try FileLock.withLock(path) { XCTFail("ran beyond the limit") }) {
      XCTAssertEqual($0 as? FileLock.Busy, FileLock.Busy(path: path, reason: .crowded))
    }
    XCTAssertLessThan(ContinuousClock.now - began, .milliseconds(100), "refused without waiting")
    XCTAssertNoThrow(try FileLock.withLock(data + "/.Other.lock") {}, "another lock is free")

    release.signal()
    XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(ran.withLock { $0 }, FileLock.maximumThreads)
    XCTAssertEqual(FileLock.threads(waitingForOrHolding: path), 0)
    XCTAssertNoThrow(try FileLock.withLock(path) {})
  }

  /// Another process's lock is another open file description: a second
  /// `open` + `flock` in this process stands for it.
  func testALockHeldElsewhereIsWaitedForAtMostTheTimeout() throws {
    let data = try makeDataDirectory(self)
    let path = data + "/.Checklists.lock"
    let other = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    XCTAssertGreaterThanOrEqual(other, 0)
    XCTAssertEqual(flock(other, LOCK_EX), 0)
    let began = ContinuousClock.now
    XCTAssertThrowsError(try FileLock.withLock(path, timeout: .milliseconds(200)) {}) {
      XCTAssertEqual($0 as? FileLock.Busy, FileLock.Busy(path: path, reason: .timedOut))
    }
    let waited = ContinuousClock.now - began
    XCTAssert(waited >= .milliseconds(200) && waited < .seconds(2), "\(waited)")
    XCTAssertEqual(FileLock.threads(waitingForOrHolding: path), 0)

    // Released while a thread waits: it gets the lock.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { close(other) }
    XCTAssertNoThrow(try FileLock.withLock(path, timeout: .seconds(5)) {})
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
