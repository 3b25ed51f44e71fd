import Foundation
import ServiceMetrics
import Support

/// Wrong guesses per client address: after `limit` failures within
/// `window`, that address is refused (`429`) until the oldest of them is
/// older than `window`.
///
/// For secrets a person types, such as link codes: at 140 bits a code is
/// out of reach of guessing anyway, but a limit keeps a broken client or a
/// scanner from hammering the lock files behind the look-ups, and says so.
/// In memory, per backend process, bounded: the least recently seen
/// addresses are forgotten first.
final class AttemptLimiter: Sendable {
  let limit: Int
  let window: TimeInterval
  private let failures: LockedValue<LRUCache<String, [Date]>>
  /// What each refusal is counted as (`serve --metrics`).
  private let refusal: ServiceCounters.Event

  init(
    limit: Int, window: TimeInterval, capacity: Int = 10_000,
    refusal: ServiceCounters.Event
  ) {
    self.limit = limit
    self.window = window
    self.refusal = refusal
    failures = LockedValue(LRUCache(capacity: capacity))
  }

  /// Seconds until `address` may try again; nil when it may now. Asked
  /// once per attempt: an answer other than nil is counted as a refusal.
  func retryAfter(_ address: String, now: Date) -> Int? {
    let recent = failures.withLock { $0.value(forKey: address) ?? [] }.filter {
      now.timeIntervalSince($0) < window
    }
    guard recent.count >= limit, let oldest = recent.min() else { return nil }
    ServiceCounters.shared.count(refusal)
    return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
  }

  /// Counts a wrong guess from `address`.
  func recordFailure(_ address: String, now: Date) {
    failures.withLock { cache in
      var recent = (cache.value(forKey: address) ?? []).filter {
        now.timeIntervalSince($0) < window
      }
      recent.append(now)
      cache.setValue(Array(recent.suffix(limit)), forKey: address)
    }
  }
}
