/// The dates of XML property lists: `2026-05-01T09:00:00Z`, always UTC, whole seconds,
/// as CoreFoundation and `plistlib` write them. Read by hand rather than with a
/// `DateFormatter`, which costs microseconds a date and depends on the locale's calendar.
/// The calendar is the proleptic Gregorian one of `plistlib` and CoreFoundation's
/// `CFGregorianDate`; Foundation on Linux writes dates before the reform of 1582 in the
/// Julian calendar instead (1443-01-01 there is 1443-01-10 here), which no due date
/// meets: the model keeps them between 1970 and 9999.
package enum PropertyListDate {
  /// Seconds from 1970-01-01 to 2001-01-01, `NSDate`'s reference date.
  static let referenceDateSince1970: Int64 = 978_307_200

  /// The seconds since 2001-01-01 00:00:00 UTC of `text`, or nil when it is not a date of
  /// exactly that form, with years 0001 to 9999 and a day that exists.
  package static func seconds(iso8601 text: Substring) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Double(seconds - referenceDateSince1970)
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard
  /// Hinnant's `days_from_civil`: years counted from March, in 400-year eras).
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// Base64 as XML property lists hold `<data>`: the standard alphabet, `=` padding, and
/// whitespace anywhere (writers break lines). Anything else is refused.
enum Base64 {
  static func decode(_ text: some Sequence<UInt8>) -> [UInt8]? {
    var result: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    var padding = 0
    for byte in text {
      let value: UInt32
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: return nil
      }
      guard padding == 0 else { return nil }
      buffer = buffer << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        result.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    // What is left is 0 bits (whole groups, no padding), 4 bits (two characters, one
    // byte: "=="), or 2 bits (three characters, two bytes: "="); those bits must be zero.
    let expected = [0: 0, 4: 2, 2: 1][bits]
    guard let expected, padding == expected, buffer & ((1 << UInt32(bits)) - 1) == 0 else {
      return nil
    }
    return result
  }
}
