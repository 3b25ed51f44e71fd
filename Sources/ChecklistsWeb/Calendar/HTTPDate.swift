import Support

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
