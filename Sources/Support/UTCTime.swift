/// A moment as a UTC calendar date and clock time, from whole seconds since
/// 1970, by arithmetic alone: what the calendar feed and export
/// (`20250301T170000Z`), the JSON export (`2025-03-01T17:00:00Z`) and the
/// HTTP dates (`Sat, 01 Mar 2025 17:00:00 GMT`) are written in, without a
/// `DateFormatter` (thousands of dates a file, each in nanoseconds rather
/// than microseconds).
package struct UTCTime: Equatable, Sendable {
  package var year: Int
  package var month: Int
  package var day: Int
  package var hour: Int
  package var minute: Int
  package var second: Int
  /// 0 for Sunday … 6 for Saturday.
  package var weekday: Int

  /// The time of `seconds` since 1970-01-01T00:00:00Z (negative before).
  package init(secondsSince1970 seconds: Int64) {
    let (days, remainder) = Self.floorDivide(seconds, 86_400)
    hour = Int(remainder / 3_600)
    minute = Int(remainder % 3_600 / 60)
    second = Int(remainder % 60)
    weekday = Int((days % 7 + 11) % 7)  // 1970-01-01 was a Thursday (4)
    (year, month, day) = CivilDate.date(daysSince1970: Int(days))
  }

  /// Seconds since 1970 of a UTC date and time, or nil for one that does
  /// not exist (31 February, 24:00).
  package static func secondsSince1970(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) -> Int64? {
    guard (1...12).contains(month),
      (1...CivilDate.days(inMonth: month, ofYear: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let days = Int64(CivilDate.daysSince1970(year: year, month: month, day: day))
    return days * 86_400 + Int64(hour * 3_600 + minute * 60 + min(second, 59))
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value / divisor
    let remainder = value % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}
