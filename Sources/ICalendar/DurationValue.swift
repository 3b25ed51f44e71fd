import Foundation

/// A `DURATION` value (RFC 5545 §3.3.6): `P` then weeks, or days and a
/// time of hours, minutes and seconds (`P1W`, `P2DT3H`, `-PT15M`). Weeks
/// and days are nominal (a day across a daylight-saving change is still
/// a day of the calendar); hours, minutes and seconds are exact.
package struct DurationValue: Sendable, Equatable {
  /// Weeks and days, as days.
  package let days: Int
  /// Hours, minutes and seconds, as seconds.
  package let seconds: Int
  package let isNegative: Bool

  /// The most digits a number of a duration may have: nine, so that no sum
  /// of them overflows.
  static let maximumDigits = 9

  package init(days: Int, seconds: Int, isNegative: Bool = false) {
    self.days = days
    self.seconds = seconds
    self.isNegative = isNegative
  }

  /// The duration `text` writes, or nil when it is not one (upper or lower
  /// case, as the grammar is case-insensitive).
  package init?(_ text: String) {
    var bytes = Array(text.uppercased().utf8)[...]
    var isNegative = false
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      isNegative = sign == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    guard bytes.first == UInt8(ascii: "P") else { return nil }
    bytes = bytes.dropFirst()
    var days = 0
    var seconds = 0
    var inTime = false
    // The units in the grammar's order, each at most once: W alone, or D,
    // then T and H, M, S.
    var last = 0
    while let first = bytes.first {
      if first == UInt8(ascii: "T") {
        guard !inTime, last != 1 else { return nil }
        inTime = true
        bytes = bytes.dropFirst()
        continue
      }
      let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      guard !digits.isEmpty, digits.count <= Self.maximumDigits else { return nil }
      bytes = bytes.dropFirst(digits.count)
      let number = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard let unit = bytes.popFirst() else { return nil }
      let rank: Int
      switch (unit, inTime) {
      case (UInt8(ascii: "W"), false): (rank, days) = (1, number * 7)
      case (UInt8(ascii: "D"), false): (rank, days) = (2, number)
      case (UInt8(ascii: "H"), true): (rank, seconds) = (3, seconds + number * 3_600)
      case (UInt8(ascii: "M"), true): (rank, seconds) = (4, seconds + number * 60)
      case (UInt8(ascii: "S"), true): (rank, seconds) = (5, seconds + number)
      default: return nil
      }
      guard rank > last, last != 1 else { return nil }
      last = rank
    }
    // "P" alone, or a "T" with no time after it, is no duration.
    guard last > 0, !inTime || last >= 3 else { return nil }
    self.init(days: days, seconds: seconds, isNegative: isNegative)
  }

  /// `date` moved by this duration, its days counted in `zone`'s calendar;
  /// nil past what a date holds.
  package func added(to date: Date, in zone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let sign = isNegative ? -1 : 1
    guard let moved = days == 0 ? date : calendar.date(byAdding: .day, value: sign * days, to: date)
    else { return nil }
    return moved.addingTimeInterval(Double(sign * seconds))
  }
}
