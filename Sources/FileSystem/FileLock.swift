import Documents
import SystemPackage

/// An exclusive advisory lock (`flock`) on a lock file.
///
/// Each acquisition opens the file anew, so the lock serialises threads of
/// one process as well as separate processes that share the data directory
/// (flock locks belong to the open file description, not to the process).
///
/// Waiting is bounded as every engine's lock is (`DocumentLock`): at most
/// `DocumentLock.maximumThreads` threads of this process wait for or hold
/// one lock file (the next is refused at once, `Busy.crowded`), and a
/// thread waits at most `timeout` (another process may hold the lock),
/// polling with `LOCK_NB`, then gives up (`Busy.timedOut`). An uncontended
/// lock costs one `flock`.
package enum FileLock {
  /// Runs `body` while holding an exclusive lock on `path` (created if missing).
  ///
  /// - Throws: `DocumentLock.Busy` when too many threads wait for the lock
  ///   or it stays taken for `timeout`; `FileError` when it cannot be
  ///   taken; or whatever `body` throws.
  package static func withLock<T>(
    _ path: String, timeout: Duration = DocumentLock.defaultTimeout, _ body: () throws -> T
  ) throws -> T {
    try DocumentLock.admitting(path) { try flocking(path, timeout: timeout, body) }
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
      if now >= deadline { throw DocumentLock.Busy(path: path, reason: .timedOut) }
      system_nanosleep(min(pause, now.duration(to: deadline)))
      pause = min(pause * 2, .milliseconds(16))
    }
  }
}
