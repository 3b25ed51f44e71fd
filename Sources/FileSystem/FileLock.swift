import Support
import SystemPackage

/// An exclusive advisory lock (`flock`) on a lock file.
///
/// Each acquisition opens the file anew, so the lock serialises threads of
/// one process as well as separate processes that share the data directory
/// (flock locks belong to the open file description, not to the process).
///
/// Waiting is bounded twice, so that one visitor cannot take the worker
/// threads every other visitor needs: a blocking `flock` on one huge
/// visitor's lock, whose every change re-encodes and flushes their file,
/// parked all 64 threads when that visitor sent 64 toggles at once. At most
/// `maximumThreads` threads of this process wait for or hold one lock file;
/// the next is refused at once (`Busy.crowded`). And a thread waits at most
/// `timeout` (another process may hold the lock), polling with
/// `LOCK_NB`, then gives up (`Busy.timedOut`). An uncontended lock costs
/// one `flock`.
package enum FileLock {
  /// Threads of this process that may wait for or hold one lock file.
  package static let maximumThreads = 4
  /// How long a thread waits for a lock by default: far longer than any
  /// change takes (encoding and flushing a full 2 MiB file takes a few ms).
  package static let defaultTimeout: Duration = .seconds(5)

  /// The lock was not taken; nothing ran.
  package struct Busy: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
      /// `maximumThreads` threads already wait for or hold the lock.
      case crowded
      /// Someone else held the lock for the whole timeout.
      case timedOut
    }
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
      self.path = path
      self.reason = reason
    }

    package var description: String {
      switch reason {
      case .crowded: "\(path): \(FileLock.maximumThreads) threads already wait for this lock"
      case .timedOut: "\(path): lock held by someone else for the whole wait"
      }
    }
  }

  /// Runs `body` while holding an exclusive lock on `path` (created if missing).
  ///
  /// - Throws: `Busy` when too many threads wait for the lock or it stays
  ///   taken for `timeout`; `FileError` when it cannot be taken; or whatever
  ///   `body` throws.
  package static func withLock<T>(
    _ path: String, timeout: Duration = defaultTimeout, _ body: () throws -> T
  ) throws -> T {
    try admitting(path) { try flocking(path, timeout: timeout, body) }
  }

  /// Runs `body` counted among the threads of this process that wait for
  /// or hold the lock `path`: what bounds them for any engine's lock (a
  /// database's advisory lock as well as a `flock`).
  ///
  /// - Throws: `Busy.crowded` when `maximumThreads` threads already do
  ///   (`body` does not run), or whatever `body` throws.
  package static func admitting<T>(_ path: String, _ body: () throws -> T) throws -> T {
    try admit(path)
    defer { leave(path) }
    return try body()
  }

  /// Threads of this process waiting for or holding the lock on `path`.
  package static func threads(waitingForOrHolding path: String) -> Int {
    occupancy.withLock { $0[path] ?? 0 }
  }

  // MARK: Internals

  private static func flocking<T>(_ path: String, timeout: Duration, _ body: () throws -> T)
    throws -> T
  {
    let fd: FileDescriptor
    do { fd = try system_open(path, .createOrOpen, permissions: 0o600) } catch {
      throw FileError(operation: "open", path: path, errno: error)
    }
    defer { system_close(fd) }  // closing the descriptor releases the lock
    try acquire(fd, path: path, timeout: timeout)
    return try body()
  }

  private static let occupancy = LockedValue<[String: Int]>([:])

  private static func admit(_ path: String) throws(Busy) {
    let admitted = occupancy.withLock { counts -> Bool in
      let count = counts[path] ?? 0
      guard count < maximumThreads else { return false }
      counts[path] = count + 1
      return true
    }
    if !admitted { throw Busy(path: path, reason: .crowded) }
  }

  private static func leave(_ path: String) {
    occupancy.withLock { counts in
      let count = counts[path, default: 1] - 1
      counts[path] = count == 0 ? nil : count
    }
  }

  /// `flock` without blocking, retried with a growing pause (0.5 ms
  /// doubling up to 16 ms: a handover costs little next to a durable write)
  /// until `timeout` has passed.
  private static func acquire(_ fd: FileDescriptor, path: String, timeout: Duration) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var pause: Duration = .microseconds(500)
    while true {
      let taken: Bool
      do { taken = try system_flock_exclusive_nonblocking(fd) } catch {
        throw FileError(operation: "flock", path: path, errno: error)
      }
      if taken { return }
      let now = clock.now
      if now >= deadline { throw Busy(path: path, reason: .timedOut) }
      system_nanosleep(min(pause, now.duration(to: deadline)))
      pause = min(pause * 2, .milliseconds(16))
    }
  }
}
