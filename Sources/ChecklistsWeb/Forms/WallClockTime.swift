import ChecklistsModel
import Foundation
import Support

/// A date and time as a clock on the wall shows it, without a time zone:
/// what a `datetime-local` field sends and shows.
///
/// The conversions to and from an instant are done here with the
/// proleptic Gregorian calendar and the zone's offsets, not with
/// `Calendar` or `DateFormatter`: the rule for a time that a change of
/// clocks skips or repeats is then this type's, stated below, and a row's
/// date costs no formatter.
struct WallClockTime: Sendable, Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  /// The time a date given without one is due at: 09:00, the start of a
  /// working day (a browser without `datetime-local` sends what the
  /// visitor typed, often a date alone).
  static let timeOfDateAlone = (hour: 9, minute: 0)

  init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Reads what a date field sent: `YYYY-MM-DDTHH:MM`, with `:SS` and a
  /// fraction of a second (dropped) if given, a space instead of `T`, or
  /// `YYYY-MM-DD` alone (due at `timeOfDateAlone`). The year has four
  /// digits or more (so that 10000 is read, then refused as out of range,
  /// rather than called malformed). Nil when it is none of these or names a
  /// day or time that does not exist (31 April, 24:00).
  init?(parsing text: some StringProtocol) {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(minimumDigits: 4, maximumDigits: 6), scanner.skip("-"),
      let month = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.skip("-"),
      let day = scanner.number(minimumDigits: 2, maximumDigits: 2)
    else { return nil }
    var hour = Self.timeOfDateAlone.hour
    var minute = Self.timeOfDateAlone.minute
    var second = 0
    if !scanner.isAtEnd {
      guard scanner.skip("T") || scanner.skip(" "),
        let h = scanner.number(minimumDigits: 2, maximumDigits: 2), scanner.skip(":"),
        let m = scanner.number(minimumDigits: 2, maximumDigits: 2)
      else { return nil }
      hour = h
      minute = m
      if scanner.skip(":") {
        guard let s = scanner.number(minimumDigits: 2, maximumDigits: 2) else { return nil }
        second = s
        if scanner.skip(".") {
          guard scanner.number(minimumDigits: 1, maximumDigits: 9) != nil else { return nil }
        }
      }
      guard scanner.isAtEnd else { return nil }
    }
    guard (1...12).contains(month),
      (1...CivilDate.days(inMonth: month, ofYear: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// The wall-clock time in `zone` at `date` (whole seconds).
  init(_ date: Date, in zone: TimeZone) {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    self.init(utcSeconds: seconds + zone.secondsFromGMT(for: date))
  }

  /// The wall-clock time of UTC at `seconds` since 1970.
  init(utcSeconds seconds: Int) {
    let days = seconds.floorDivided(by: 86_400)
    let rest = seconds - days * 86_400
    let (year, month, day) = CivilDate.date(daysSince1970: days)
    self.init(
      year: year, month: month, day: day, hour: rest / 3_600, minute: rest % 3_600 / 60,
      second: rest % 60)
  }

  /// Days since 1970-01-01 of this date.
  var daysSince1970: Int { CivilDate.daysSince1970(year: year, month: month, day: day) }

  /// Seconds since 1970 if this wall-clock time were UTC's.
  var utcSeconds: Int { daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second }

  /// The instant this wall-clock time names in `zone`, a skipped or
  /// repeated time read by `TimeZone.instant(showing:)`'s rule.
  func date(in zone: TimeZone) -> Date { zone.instant(showing: utcSeconds) }

  /// As a `datetime-local` field's value: `YYYY-MM-DDTHH:MM`, with `:SS`
  /// when the seconds are not zero.
  var formValue: String { formValue(then: []) }

  /// `formValue` followed by `suffix`'s bytes, written digit by digit: a
  /// list page writes one per due date, and as interpolated strings each
  /// took ~6,500 instructions (`bench-web --profile N long`).
  func formValue(then suffix: [UInt8]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(20 + suffix.count)
    Self.append(year, width: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    Self.append(month, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    Self.append(day, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    Self.append(hour, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    Self.append(minute, width: 2, to: &bytes)
    if second != 0 {
      bytes.append(UInt8(ascii: ":"))
      Self.append(second, width: 2, to: &bytes)
    }
    bytes += suffix
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `HH:MM`, as a row's due date shows the time.
  static func clock(hour: Int, minute: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(5)
    append(hour, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append(minute, width: 2, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  static func padded(_ number: Int, _ width: Int = 2) -> String {
    var bytes: [UInt8] = []
    append(number, width: width, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `number`'s decimal digits, with zeros in front up to `width` digits
  /// (a negative number as `String(number)` writes it). Byte by byte, most
  /// significant first: appending a slice of a digit buffer cost ~325
  /// instructions a number, and a dated row writes six
  /// (`bench-web --profile N dated`).
  static func append(_ number: Int, width: Int, to bytes: inout [UInt8]) {
    guard number >= 0 else {
      let digits = String(number)
      let zeros = max(width - digits.utf8.count, 0)
      bytes += repeatElement(UInt8(ascii: "0"), count: zeros)
      bytes += digits.utf8
      return
    }
    var divisor = 1
    var count = 1
    while divisor <= number / 10 {
      divisor *= 10
      count += 1
    }
    var zeros = width - count
    while zeros > 0 {
      bytes.append(UInt8(ascii: "0"))
      zeros -= 1
    }
    var rest = number
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

}

extension Int {
  /// The quotient rounded towards minus infinity (days before 1970 are
  /// negative).
  fileprivate func floorDivided(by divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

/// Reads ASCII digits and separators from the front of some bytes.
private struct DigitScanner {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position == bytes.count }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// A run of `minimumDigits`…`maximumDigits` digits (not followed by
  /// another digit) as a number.
  mutating func number(minimumDigits: Int, maximumDigits: Int) -> Int? {
    var value = 0
    var count = 0
    while position < bytes.count, bytes[position] >= UInt8(ascii: "0"),
      bytes[position] <= UInt8(ascii: "9")
    {
      guard count < maximumDigits else { return nil }
      value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
      count += 1
      position += 1
    }
    return count >= minimumDigits ? value : nil
  }
}
