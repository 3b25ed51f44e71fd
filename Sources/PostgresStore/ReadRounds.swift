import Documents
import Foundation

/// Reads for many threads in one statement, the way a database commits for
/// many transactions in one flush: a thread that asks while another thread's
/// statement is on its way joins the next round; when that statement is
/// answered, one thread of the next round is woken to send the round's
/// statement for everyone in it.
///
/// Never stale: a round's statement is sent after every request in it was
/// made, so it sees every change acknowledged before any of them asked. A
/// thread alone sends its own at once, and waits for nobody.
///
/// Why: the list page's one read (its owner's version) cost the database
/// ~40 µs of CPU per page on these 2 cores, as much as serving the page;
/// at 64 concurrent pages, one statement answers several of them.
/// Each waiting thread is woken by its round's own semaphore, once: with one
/// condition for everyone, each wake-up then queued for the shared mutex.
final class ReadRounds<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  /// One statement's worth of keys, and then its answers.
  private final class Round {
    var keys: Set<Key> = []
    /// Set, under the lock, before the waiters are woken to read it.
    var outcome: Result<[Key: Value], DocumentError>?
    /// Threads of the round asleep on `wake` (under the lock).
    var waiting = 0
    let wake = DispatchSemaphore(value: 0)
  }

  private let lock = NSLock()
  /// The round that new requests join: its statement is not sent yet.
  private var gathering = Round()
  /// A round's statement is on its way, or the next round's sender is
  /// being woken: a new request then waits in `gathering`.
  private var sending = false

  /// How many threads wait for a round (for tests).
  var waitingCount: Int { lock.withLock { gathering.waiting } }

  /// `key`'s value as it stands at least as late as this call; nil when
  /// there is none.
  ///
  /// - Parameter read: one statement's answers for some keys, run on the
  ///   calling thread when it sends a round (never on two threads at
  ///   once); a key with no answer is left out.
  func value(for key: Key, read: ([Key]) throws(DocumentError) -> [Key: Value])
    throws(DocumentError)
    -> Value?
  {
    lock.lock()
    let round = gathering
    round.keys.insert(key)
    if sending {
      round.waiting += 1
      lock.unlock()
      round.wake.wait()
      lock.lock()
      if let outcome = round.outcome {
        lock.unlock()
        return try outcome.get()[key]
      }
      // Woken to send the round: `sending` was kept set for this thread.
      round.waiting -= 1
    } else {
      sending = true
    }
    gathering = Round()
    let keys = Array(round.keys)
    lock.unlock()

    let outcome: Result<[Key: Value], DocumentError>
    do { outcome = .success(try read(keys)) } catch { outcome = .failure(error) }

    lock.lock()
    round.outcome = outcome
    let answered = round.waiting
    let next = gathering
    let handOver = next.waiting > 0
    sending = handOver
    lock.unlock()
    for _ in 0..<answered { round.wake.signal() }
    if handOver { next.wake.signal() }
    return try outcome.get()[key]
  }
}
