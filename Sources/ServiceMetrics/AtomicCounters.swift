import Synchronization

/// A fixed number of 64-bit counters, each added to without a lock: one
/// allocation of `Atomic`s made at start, indexed by the caller.
///
/// What the request metrics count with, on every request: a relaxed atomic
/// add is a few instructions, where swift-prometheus' histogram takes a
/// lock (see `RequestMetrics`).
package final class AtomicCounters: @unchecked Sendable {
  // @unchecked: `cells` is set once, in `init`, and each cell is an `Atomic`.
  private let cells: UnsafeMutablePointer<Atomic<UInt64>>
  package let count: Int

  package init(count: Int) {
    precondition(count > 0, "at least one counter")
    self.count = count
    cells = .allocate(capacity: count)
    for index in 0..<count { (cells + index).initialize(to: Atomic(0)) }
  }

  deinit {
    cells.deinitialize(count: count)
    cells.deallocate()
  }

  /// Adds `amount` to the counter at `index` (wrapping past 2⁶⁴, which a
  /// count never reaches).
  @inline(__always)
  package func add(_ amount: UInt64 = 1, at index: Int) {
    precondition(index >= 0 && index < count, "no such counter")
    cells[index].wrappingAdd(amount, ordering: .relaxed)
  }

  /// The counter at `index` as it stands.
  package func value(at index: Int) -> UInt64 {
    precondition(index >= 0 && index < count, "no such counter")
    return cells[index].load(ordering: .relaxed)
  }
}
