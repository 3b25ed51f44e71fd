import Support

/// A `DATE` or `DATE-TIME` value (RFC 5545 §3.3.4, §3.3.5) as the client
/// wrote it: which of the three forms it is, and its fields. Turning the
/// local forms into an instant needs a time zone, which is the caller's.
package struct DateTimeValue: Sendable, Equatable {
  package enum Form: Sendable, Equatable {
    /// `VALUE=DATE`: a day, no time.
    case date
    /// `…Z`: a time in UTC.
    case utc
    /// A wall-clock time in the zone `TZID` names, or floating (the
    /// viewer's own zone) when nil.
    case local(zoneID: String?)
  }

  package let form: Form
  package let year: Int
  package let month: Int
  package let day: Int
  package let hour: Int
  package let minute: Int
  package let second: Int

  /// The value of `line` (`DUE`, `DTSTART`, `COMPLETED`…), or nil when it is
  /// not a date or date-time of the exact forms above (a leap second, `60`,
  /// is read as `59`).
  package init?(_ line: ContentLine) {
    let digits = Array(line.value.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let digit = digits[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard digits.count >= 8, let year = number(0..<4), let month = number(4..<6),
      let day = number(6..<8), (1...12).contains(month), day >= 1,
      day <= CivilDate.days(inMonth: month, ofYear: year)
    else { return nil }
    let isDate = line.parameter("VALUE")?.uppercased() == "DATE"
    if digits.count == 8 {
      guard isDate || line.parameter("VALUE") == nil else { return nil }
      self.init(form: .date, year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
      return
    }
    guard !isDate, digits.count == 15 || digits.count == 16, digits[8] == UInt8(ascii: "T"),
      let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
      hour < 24, minute < 60, second <= 60
    else { return nil }
    let form: Form
    if digits.count == 16 {
      guard digits[15] == UInt8(ascii: "Z") else { return nil }
      form = .utc
    } else {
      form = .local(zoneID: line.parameter("TZID"))
    }
    self.init(
      form: form, year: year, month: month, day: day, hour: hour, minute: minute,
      second: min(second, 59))
  }

  package init(form: Form, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.form = form
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }
}
