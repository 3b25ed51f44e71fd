/// Days since 1970-01-01 to and from proleptic Gregorian dates, by
/// arithmetic alone (H. Hinnant's `days_from_civil` and `civil_from_days`:
/// eras of 400 years, 146,097 days, counted from 0000-03-01 so that a leap
/// day ends its year), as `gmtime` gives them. What the property-list
/// writers, the calendar feed, HTTP dates and the due-date form write and
/// read dates with, without a `DateFormatter`: thousands of dates a file or
/// feed, each in nanoseconds rather than microseconds.
package enum CivilDate {
  /// The year, month (1–12) and day (1–31) of a day counted from
  /// 1970-01-01 (negative before).
  package static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468  // days from 0000-03-01
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 is March
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Days since 1970-01-01 of a date (the inverse of `date(daysSince1970:)`).
  package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  package static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  package static func days(inMonth month: Int, ofYear year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The quotient rounded towards minus infinity, for a positive divisor.
  private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : (value - divisor + 1) / divisor
  }
}
