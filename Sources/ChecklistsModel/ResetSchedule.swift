import Foundation
import Support

/// The boundaries of a `ResetClock`: the instants its resets fall due at.
/// Pure: a function of the rule, its zone's offsets, and the instants asked
/// about.
///
/// The boundary of a reset day is the first instant whose wall-clock
/// reading in the zone is that day's time or later. So a time the clocks
/// skip (02:30 on the morning Berlin goes from 02:00 to 03:00) falls due at
/// the first instant after the gap (03:00 summer time), and a time the
/// clocks show twice (02:30 on the morning they go back) falls due once, at
/// the first of the two.
package struct ResetSchedule: Sendable {
  package let clock: ResetClock
  private let zone: TimeZone

  package init(_ clock: ResetClock) {
    self.clock = clock
    zone = clock.timeZone
  }

  /// The first boundary strictly after `instant`.
  package func next(after instant: Date) -> Date {
    var day = localDay(of: instant) - 1
    // A boundary falls within 31 days of any instant (within 7 for weekdays).
    while true {
      if isResetDay(day), case let boundary = boundary(onDay: day), boundary > instant {
        return boundary
      }
      day += 1
    }
  }

  /// The last boundary at or before `instant`.
  package func latest(atOrBefore instant: Date) -> Date {
    var day = localDay(of: instant) + 1
    while true {
      if isResetDay(day), case let boundary = boundary(onDay: day), boundary <= instant {
        return boundary
      }
      day -= 1
    }
  }

  // MARK: Days

  /// Whether the local day `day` (days since 1970-01-01 on the wall
  /// calendar) is one the rule resets on.
  func isResetDay(_ day: Int) -> Bool {
    switch clock.days {
    case .everyDay: return true
    case .weekdays(let weekdays): return weekdays.contains(Self.isoWeekday(day))
    case .dayOfMonth(let wanted):
      let date = CivilDate.date(daysSince1970: day)
      return date.day == min(wanted, CivilDate.days(inMonth: date.month, ofYear: date.year))
    }
  }

  /// The local day of `instant` in the zone.
  func localDay(of instant: Date) -> Int {
    let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
    return Self.floorDivide(seconds + zone.secondsFromGMT(for: instant), 86_400)
  }

  /// The boundary on local day `day`: the first instant whose reading is
  /// that day's time or later.
  func boundary(onDay day: Int) -> Date {
    let reading = day * 86_400 + clock.hour * 3_600 + clock.minute * 60
    return Date(timeIntervalSince1970: TimeInterval(firstInstant(reading: reading)))
  }

  /// The first instant (seconds since 1970) whose wall-clock reading
  /// (seconds since 1970 on the wall calendar) is `reading` or later.
  private func firstInstant(reading: Int) -> Int {
    // The offsets around: a zone changes its offset at most once in a day.
    let offsets = Set([reading - 86_400, reading, reading + 86_400].map(offset(at:)))
    // Readings that exist: the earliest instant that shows it (the first of two).
    let exact = offsets.map { reading - $0 }.filter { offset(at: $0) == reading - $0 }
    if let first = exact.min() { return first }
    // Skipped: the instant the clocks jump, between the instant the reading
    // would be under the later (larger) offset and under the earlier one.
    guard let later = offsets.max(), let earlier = offsets.min() else { return reading }
    var low = reading - later  // before the jump
    var high = reading - earlier  // after it
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if offset(at: middle) == later { high = middle } else { low = middle }
    }
    return high
  }

  private func offset(at seconds: Int) -> Int {
    zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  // MARK: Calendar arithmetic (proleptic Gregorian)

  static func floorDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }

  /// 1 = Monday … 7 = Sunday; day 0 (1970-01-01) was a Thursday.
  static func isoWeekday(_ day: Int) -> Int {
    ((day + 3) % 7 + 7) % 7 + 1
  }
}
