import Foundation

/// A value behind a plain `pthread` mutex (Foundation's `NSLock`).
///
/// Used instead of the standard library's `Mutex` for the caches every
/// request reads. On Linux, `Mutex` is a priority-inheritance futex that
/// spins before it sleeps; with the backend's 48+ threads on 2 cores the
/// owner is often descheduled, and under `wrk` on one hot page its slow path
/// took 18% of the backend's CPU (`perf`, `scripts/bench`). Inlinable, as is
/// `LRUCache`, so callers in other modules get code specialised to their types
/// (which needs the type `@usableFromInline` too: see `LRUCache`).
@usableFromInline package final class LockedValue<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  @usableFromInline var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock; keep `body` short.
  @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows
    -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
