import Support

/// A moment as a UTC calendar date and clock time, from whole seconds since
/// 1970, by arithmetic alone: what the calendar feed (`20250301T170000Z`)
/// and the HTTP dates (`Sat, 01 Mar 2025 17:00:00 GMT`) are written in,
/// without a `DateFormatter` (thousands of dates a feed, each in
/// nanoseconds rather than microseconds).
struct UTCTime: Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int
  /// 0 for Sunday … 6 for Saturday.
  var weekday: Int

  /// The time of `seconds` since 1970-01-01T00:00:00Z (negative before).
  init(secondsSince1970 seconds: Int64) {
    let (days, remainder) = Self.floorDivide(seconds, 86_400)
    hour = Int(remainder / 3_600)
    minute = Int(remainder % 3_600 / 60)
    second = Int(remainder % 60)
    weekday = Int((days % 7 + 11) % 7)  // 1970-01-01 was a Thursday (4)
    (year, month, day) = CivilDate.date(daysSince1970: Int(days))
  }

  /// Seconds since 1970 of a UTC date and time, or nil for one that does
  /// not exist (31 February, 24:00).
  static func secondsSince1970(
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

/// HTTP's date format (RFC 9110's IMF-fixdate) for `Last-Modified`, and its
/// reading for `If-Modified-Since`.
enum HTTPDate {
  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Sat, 01 Mar 2025 17:00:00 GMT`.
  static func format(secondsSince1970 seconds: Int64) -> String {
    let time = UTCTime(secondsSince1970: seconds)
    return "\(weekdays[time.weekday]), \(two(time.day)) \(months[time.month - 1]) "
      + "\(four(time.year)) \(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT"
  }

  /// The seconds since 1970 of an IMF-fixdate, nil for anything else (the
  /// obsolete RFC 850 and asctime forms included): a date that cannot be
  /// read makes the condition false, so the full answer is sent.
  static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      weekdays.contains(String(parts[0].dropLast())), parts[5] == "GMT",
      let day = digits(parts[1], count: 2),
      let monthIndex = months.firstIndex(of: String(parts[2])),
      let year = digits(parts[3], count: 4)
    else { return nil }
    let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
    guard clock.count == 3, let hour = digits(clock[0], count: 2),
      let minute = digits(clock[1], count: 2), let second = digits(clock[2], count: 2)
    else { return nil }
    return UTCTime.secondsSince1970(
      year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
  }

  /// The value of exactly `count` ASCII digits, else nil.
  private static func digits(_ text: Substring, count: Int) -> Int? {
    guard text.utf8.count == count,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(text)
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func four(_ value: Int) -> String {
    let text = "\(value)"
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
  }
}
