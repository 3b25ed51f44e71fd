import ChecklistsModel
import Support

/// RFC 3339 date-times, the JSON export's dates: written in UTC to the
/// second (`2025-03-01T17:00:00Z`); read with or without a fraction of a
/// second and with `Z` or an offset (`2025-03-01T18:00:00.250+01:00`).
enum RFC3339 {
  /// `2025-03-01T17:00:00Z` for whole seconds since 1970, which must be
  /// within `DueDate.range` (callers clamp: the year has four digits).
  static func append(_ seconds: Int64, to bytes: inout [UInt8]) {
    let time = UTCTime(secondsSince1970: seconds)
    appendDigits(time.year, count: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(time.month, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(time.day, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(time.hour, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time.minute, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time.second, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// The whole seconds since 1970 of a date (or its first second), clamped to
  /// `DueDate.range`: what every date of an export is written as.
  static func clampedSeconds(_ date: Double) -> Int64 {
    let lower = DueDate.range.lowerBound.timeIntervalSince1970
    let upper = DueDate.range.upperBound.timeIntervalSince1970
    guard date.isFinite else { return date > 0 ? Int64(upper) : Int64(lower) }
    return Int64(min(max(date, lower), upper).rounded(.down))
  }

  private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// The whole seconds since 1970 (the fraction dropped) of an RFC 3339
  /// `date-time`, or nil when `text` is not one: `T` (or `t`) between date
  /// and time, seconds required, `Z` (or `z`) or `+hh:mm` / `-hh:mm`, and
  /// a date and time that exist (no 31 February, no 24:00).
  static func seconds(_ text: some Collection<UInt8>) -> Int64? {
    let bytes = Array(text)
    var index = 0
    func number(_ count: Int) -> Int? {
      guard bytes.count - index >= count else { return nil }
      var value = 0
      for _ in 0..<count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
        index += 1
      }
      return value
    }
    func expect(_ characters: UInt8...) -> Bool {
      guard index < bytes.count, characters.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
      expect(UInt8(ascii: "-")), let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t")),
      let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
      expect(UInt8(ascii: ":")), let second = number(2)
    else { return nil }
    if expect(UInt8(ascii: ".")) {
      let fractionStart = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      guard index > fractionStart else { return nil }
    }
    var offset = 0
    if !expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
      guard index < bytes.count else { return nil }
      let sign = bytes[index]
      guard expect(UInt8(ascii: "+"), UInt8(ascii: "-")), let offsetHours = number(2),
        expect(UInt8(ascii: ":")), let offsetMinutes = number(2), offsetHours < 24,
        offsetMinutes < 60
      else { return nil }
      offset = (offsetHours * 60 + offsetMinutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
    guard index == bytes.count,
      let local = UTCTime.secondsSince1970(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { return nil }
    return local - Int64(offset)
  }
}
