import FileSystem
import Foundation

/// Reads for many threads in one statement, the way a database commits for
/// many transactions in one flush: a thread that asks while another thread's
/// statement is on its way joins the next round, and the first thread to
/// find no statement on its way sends that round's for everyone in it.
///
/// Never stale: a round's statement is sent after every request in it was
/// made, so it sees every change acknowledged before any of them asked. A
/// thread alone sends its own at once, and waits for nobody.
///
/// Why: the list page's one read (its owner's version) cost the database
/// ~40 µs of CPU per page on these 2 cores, as much as serving the page;
/// at 64 concurrent pages, one statement answers many of them.
final class ReadRounds<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  /// One statement's worth of keys, and then its answers.
  private final class Round {
    var keys: Set<Key> = []
    var outcome: Result<[Key: Value], FileError>?
  }

  private let condition = NSCondition()
  /// The round that new requests join: its statement is not sent yet.
  private var gathering = Round()
  /// A round's statement is on its way (its sender is not back).
  private var sending = false

  /// How many threads wait for a round (for tests).
  var waitingCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return waiting
  }
  private var waiting = 0

  /// `key`'s value as it stands at least as late as this call; nil when
  /// there is none.
  ///
  /// - Parameter read: one statement's answers for some keys, run on the
  ///   calling thread when it sends a round (never on two threads at
  ///   once); a key with no answer is left out.
  func value(for key: Key, read: ([Key]) throws(FileError) -> [Key: Value]) throws(FileError)
    -> Value?
  {
    condition.lock()
    let round = gathering
    round.keys.insert(key)
    while round.outcome == nil {
      guard !sending else {
        waiting += 1
        condition.wait()
        waiting -= 1
        continue
      }
      // Nobody's statement is on its way: this thread sends the round's.
      sending = true
      gathering = Round()
      let keys = Array(round.keys)
      condition.unlock()
      let outcome: Result<[Key: Value], FileError>
      do { outcome = .success(try read(keys)) } catch { outcome = .failure(error) }
      condition.lock()
      round.outcome = outcome
      sending = false
      condition.broadcast()
    }
    let outcome = round.outcome!
    condition.unlock()
    return try outcome.get()[key]
  }
}
