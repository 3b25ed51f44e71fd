import Foundation
import Support

/// How a checklist row shows a due date: short, in the visitor's zone, and
/// relative to the day it is rendered on ("Today 14:00", "Tomorrow 09:00",
/// "12 May 18:30", and for another year "3 Jan 2027": a date that far is
/// read for its day, its time is on the item's form; every byte of a list
/// page costs throughput, see `Templates/item-row.mustache`).
///
/// Because the words depend on the day, a page that shows one is right only
/// until the visitor's next midnight (`nextChange`), which is when a kept
/// copy of it must be computed again.
struct DueDateLabel {
  let zone: TimeZone
  let now: Date
  private let today: Int
  private let thisYear: Int
  /// The visitor's language's words (`DateWords`).
  let words: DateWords

  init(zone: TimeZone, now: Date, words: DateWords = .english) {
    self.zone = zone
    self.now = now
    self.words = words
    let wall = WallClockTime(now, in: zone)
    today = wall.daysSince1970
    thisYear = wall.year
  }

  /// The visible words for `date`.
  func text(_ date: Date) -> String {
    let wall = WallClockTime(date, in: zone)
    let (hour, minute) = (wall.hour, wall.minute)
    switch wall.daysSince1970 - today {
    case 0: return words.today(hour: hour, minute: minute)
    case 1: return words.tomorrow(hour: hour, minute: minute)
    case -1: return words.yesterday(hour: hour, minute: minute)
    default:
      let month = words.months[wall.month - 1]
      return wall.year == thisYear
        ? words.dayMonthTime(day: wall.day, month: month, hour: hour, minute: minute)
        : words.dayMonthYear(day: wall.day, month: month, year: wall.year)
    }
  }

  /// The day of `date` without its time ("27 Nov", "3 Jan 2025" for
  /// another year): a repeating item's last done.
  func day(_ date: Date) -> String {
    let wall = WallClockTime(date, in: zone)
    let month = words.months[wall.month - 1]
    return wall.year == thisYear
      ? words.dayMonth(day: wall.day, month: month)
      : words.dayMonthYear(day: wall.day, month: month, year: wall.year)
  }

  /// The first moment of the visitor's next day, when "Today" and the
  /// other words may change.
  var nextChange: Date {
    let (year, month, day) = CivilDate.date(daysSince1970: today + 1)
    return WallClockTime(year: year, month: month, day: day).date(in: zone)
  }

  /// A `<time>` element's `datetime`: the instant in UTC, to the minute
  /// when it has no seconds (`2025-05-12T12:00Z`).
  static func machineReadable(_ date: Date) -> String {
    let wall = WallClockTime(utcSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
    return wall.formValue(then: [UInt8(ascii: "Z")])
  }
}
