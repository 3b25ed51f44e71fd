import Foundation

extension TimeZone {
  /// The instant at which this zone's clocks show `wall` (a wall-clock
  /// reading as seconds since 1970 on the wall calendar): the one rule the
  /// due-date form and repeating items read a local time by.
  ///
  /// A time the clocks skip (the hour lost when summer time starts) is read
  /// with the offset in force before the change, which lands as far past
  /// the change as the time was past the skipped hour's start: 02:30 on the
  /// day Berlin goes from 02:00 to 03:00 is 03:30 summer time. A time the
  /// clocks show twice (the hour repeated when summer time ends) is the
  /// first of the two. Both as JavaScript's `Temporal` ("compatible") and
  /// most calendar apps do.
  package func instant(showing wall: Int) -> Date {
    // An offset changes at most once in any two days of a real zone.
    let before = secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - 86_400)))
    let after = secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall + 86_400)))
    let candidates = Set([wall - before, wall - after]).sorted().filter { instant in
      instant + secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) == wall
    }
    return Date(timeIntervalSince1970: Double(candidates.first ?? wall - before))
  }
}
