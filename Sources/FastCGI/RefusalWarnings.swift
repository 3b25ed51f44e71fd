/// The warnings about peers refused by the allow-list, at most one per
/// interval: anyone who can reach the port can connect in a loop, and each
/// refusal writing a line would let them fill the disk with the log. The
/// connections refused in between are counted in the next warning.
package struct RefusalWarnings {
  package let interval: Duration
  private var last: ContinuousClock.Instant?
  private var unreported = 0

  package init(interval: Duration) { self.interval = interval }

  /// The warning to log for a connection refused from `peer` at `now`, or
  /// nil when one was logged within `interval` (this one is then counted).
  package mutating func refused(_ peer: IPv4Address, at now: ContinuousClock.Instant) -> String? {
    if let last, now - last < interval {
      unreported += 1
      return nil
    }
    last = now
    var message = "refused a connection from \(peer): not in the allow-list"
    if unreported > 0 {
      message += " (\(unreported) more refused since the last warning)"
    }
    unreported = 0
    return message
  }
}
