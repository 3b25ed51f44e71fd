import Support

/// What every engine's lock shares: how long a thread waits, how many
/// threads of this process may wait for or hold one lock, and the error of
/// a lock not taken.
///
/// Waiting is bounded twice, so that one visitor cannot take the worker
/// threads every other visitor needs: a blocking wait on one huge
/// visitor's lock, whose every change re-encodes and flushes their file,
/// parked all 64 threads when that visitor sent 64 toggles at once. At most
/// `maximumThreads` threads of this process wait for or hold one lock (the
/// next is refused at once, `Busy.crowded`), and a thread waits at most a
/// timeout (`Busy.timedOut`).
package enum DocumentLock {
  /// Threads of this process that may wait for or hold one lock.
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
      case .crowded: "\(path): \(DocumentLock.maximumThreads) threads already wait for this lock"
      case .timedOut: "\(path): lock held by someone else for the whole wait"
      }
    }
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
}
