import Foundation
import Support

/// How an item's due date repeats: an RRULE value (RFC 5545 §3.3.10) as it
/// was written, and the rule read from it when it lies within the subset
/// this app computes (`Recurrence.Rule`).
///
/// A rule outside the subset (a `BYSETPOS`, an hourly rule, a calendar
/// app's own parts) is kept verbatim and never reinterpreted: it goes back
/// to the app as it came, a page calls it "Repeats (custom)", and checking
/// the item checks it as any other.
///
/// Its text and rule are kept in one immutable object: an item copied (a
/// page's rows, a kept row, a model) then retains one reference for its
/// recurrence, not its text and the rule's weekdays apart, and two copies
/// of one recurrence compare by identity before their text.
package struct Recurrence: Sendable, Equatable {
  private final class Storage: Sendable {
    let text: String
    let rule: Rule?

    init(text: String, rule: Rule?) {
      self.text = text
      self.rule = rule
    }
  }

  private let storage: Storage

  /// The RRULE's value, exactly as written (by the form or an app).
  package var text: String { storage.text }
  /// The rule the text states, or nil when it is outside the subset.
  package var rule: Rule? { storage.rule }

  /// The recurrence an RRULE value states (kept verbatim whatever it holds).
  package init(text: String) {
    storage = Storage(text: text, rule: Rule(parsing: text))
  }

  /// The recurrence of a rule, written as `Rule.text` writes it.
  package init(_ rule: Rule) {
    storage = Storage(text: rule.text, rule: rule)
  }

  package static func == (a: Recurrence, b: Recurrence) -> Bool {
    a.storage === b.storage
      || (a.storage.text == b.storage.text && a.storage.rule == b.storage.rule)
  }

  /// Whether `a` and `b` are written alike (the same RRULE text): what a
  /// row shows of them. Read in place, without copying either.
  package static func sameText(_ a: Recurrence?, _ b: Recurrence?) -> Bool {
    switch (a?.storage, b?.storage) {
    case (nil, nil): true
    case (let a?, let b?): a === b || a.text == b.text
    default: false
    }
  }

  /// The longest RRULE value kept with an item (an app's rule included).
  package static let maximumBytes = 1_024
}

extension Recurrence {
  /// How often a rule of the subset repeats.
  package enum Frequency: String, Sendable, CaseIterable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  /// A day of the week, Monday first (RRULE's default week start).
  package enum Weekday: Int, Sendable, CaseIterable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Its two letters in an RRULE (`MO` … `SU`).
    package var code: String {
      ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue]
    }

    package init?(code: some StringProtocol) {
      guard let index = Weekday.allCases.firstIndex(where: { $0.code == code }) else { return nil }
      self = Weekday.allCases[index]
    }

    /// The weekday of a day counted from 1970-01-01 (a Thursday).
    package init(daysSince1970 days: Int) {
      self = Weekday(rawValue: ((days + 3) % 7 + 7) % 7)!
    }

    package static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
  }

  /// A date and time as a wall clock shows it, without a zone: what a
  /// rule repeats (so 09:00 stays 09:00 across a change of clocks).
  package struct LocalTime: Sendable, Equatable, Comparable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
      self.year = year
      self.month = month
      self.day = day
      self.hour = hour
      self.minute = minute
      self.second = second
    }

    /// The wall-clock time in `zone` at `date` (whole seconds).
    package init(_ date: Date, in zone: TimeZone) {
      let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
      self.init(utcSeconds: seconds)
    }

    /// The wall-clock time of UTC at `seconds` since 1970.
    package init(utcSeconds seconds: Int) {
      let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
      let rest = seconds - days * 86_400
      let (year, month, day) = CivilDate.date(daysSince1970: days)
      self.init(
        year: year, month: month, day: day, hour: rest / 3_600, minute: rest % 3_600 / 60,
        second: rest % 60)
    }

    /// Reads `YYYYMMDDTHHMMSS` (an RRULE's and iCalendar's local form).
    package init?(basic text: some StringProtocol) {
      let bytes = Array(text.utf8)
      guard bytes.count == 15, bytes[8] == UInt8(ascii: "T"),
        let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[4..<6]),
        let day = Self.number(bytes[6..<8]), let hour = Self.number(bytes[9..<11]),
        let minute = Self.number(bytes[11..<13]), let second = Self.number(bytes[13..<15]),
        (1...12).contains(month), (1...CivilDate.days(inMonth: month, ofYear: year)).contains(day),
        hour < 24, minute < 60, second < 60
      else { return nil }
      self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
      var value = 0
      for digit in digits {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
        value = value * 10 + Int(digit - UInt8(ascii: "0"))
      }
      return value
    }

    /// `YYYYMMDDTHHMMSS`.
    package var description: String {
      func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
      }
      return padded(year, 4) + padded(month, 2) + padded(day, 2) + "T" + padded(hour, 2)
        + padded(minute, 2) + padded(second, 2)
    }

    package var daysSince1970: Int { CivilDate.daysSince1970(year: year, month: month, day: day) }

    var secondOfDay: Int { hour * 3_600 + minute * 60 + second }

    /// Seconds since 1970 were this wall-clock time UTC's.
    package var utcSeconds: Int { daysSince1970 * 86_400 + secondOfDay }

    /// The instant this wall-clock time names in `zone`, by the due-date
    /// form's rule (`TimeZone.instant(showing:)`).
    package func date(in zone: TimeZone) -> Date { zone.instant(showing: utcSeconds) }

    /// The same time of day on the day `days` after this one's.
    func movedTo(daysSince1970 days: Int) -> LocalTime {
      let (year, month, day) = CivilDate.date(daysSince1970: days)
      return LocalTime(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    package static func < (a: LocalTime, b: LocalTime) -> Bool {
      (a.year, a.month, a.day, a.secondOfDay) < (b.year, b.month, b.day, b.secondOfDay)
    }
  }

  /// The last occurrence a rule allows (`UNTIL`, inclusive).
  package enum Until: Sendable, Equatable {
    /// `YYYYMMDD`: any time of that day.
    case date(year: Int, month: Int, day: Int)
    /// `YYYYMMDDTHHMMSS`: a wall-clock time in the item's zone.
    case local(LocalTime)
    /// `YYYYMMDDTHHMMSSZ`: an instant, seconds since 1970.
    case utc(Int)

    init?(parsing text: Substring) {
      if text.count == 8, let date = LocalTime(basic: text + "T000000") {
        self = .date(year: date.year, month: date.month, day: date.day)
      } else if text.count == 16, text.last == "Z", let time = LocalTime(basic: text.dropLast()) {
        self = .utc(time.utcSeconds)
      } else if let time = LocalTime(basic: text) {
        self = .local(time)
      } else {
        return nil
      }
    }

    var text: String {
      switch self {
      case .date(let year, let month, let day):
        String(LocalTime(year: year, month: month, day: day).description.prefix(8))
      case .local(let time): time.description
      case .utc(let seconds): LocalTime(utcSeconds: seconds).description + "Z"
      }
    }

    /// Whether an occurrence at `time` (in `zone`) is within the limit.
    func allows(_ time: LocalTime, in zone: TimeZone) -> Bool {
      switch self {
      case .date(let year, let month, let day):
        (time.year, time.month, time.day) <= (year, month, day)
      case .local(let last): time <= last
      case .utc(let last): Int(time.date(in: zone).timeIntervalSince1970) <= last
      }
    }
  }
}

extension Recurrence {
  /// The subset of RRULE this app computes: `FREQ` (daily, weekly,
  /// monthly, yearly), `INTERVAL`, `BYDAY` of a weekly rule (plain weekdays),
  /// one `BYMONTHDAY` of a monthly rule (1…31, or −31…−1 from the month's
  /// end), `COUNT` or `UNTIL`, and `WKST=MO` (the default).
  package struct Rule: Sendable, Equatable {
    package var frequency: Frequency
    /// Every `interval` days, weeks, months or years (1 or more).
    package var interval: Int
    /// A weekly rule's days, Monday first; empty for the due date's own.
    package var weekdays: [Weekday]
    /// A monthly rule's day of the month; nil for the due date's own.
    package var monthDay: Int?
    /// How many occurrences are left, the current due date's included.
    package var count: Int?
    package var until: Until?

    /// The largest `INTERVAL` of the subset.
    package static let maximumInterval = 1_000

    package init(
      frequency: Frequency, interval: Int = 1, weekdays: [Weekday] = [], monthDay: Int? = nil,
      count: Int? = nil, until: Until? = nil
    ) {
      self.frequency = frequency
      self.interval = interval
      self.weekdays = weekdays
      self.monthDay = monthDay
      self.count = count
      self.until = until
    }

    /// The rule `text` states, or nil when it is outside the subset (or not
    /// an RRULE at all).
    package init?(parsing text: String) {
      var parts: [Substring: Substring] = [:]
      for part in text.split(separator: ";", omittingEmptySubsequences: false) {
        guard let equals = part.firstIndex(of: "=") else { return nil }
        let name = part[..<equals]
        guard parts.updateValue(part[part.index(after: equals)...], forKey: name) == nil else {
          return nil
        }
      }
      guard let name = parts.removeValue(forKey: "FREQ"),
        let frequency = Frequency(rawValue: String(name))
      else { return nil }
      var rule = Rule(frequency: frequency)
      if let interval = parts.removeValue(forKey: "INTERVAL") {
        guard let value = Self.integer(interval), (1...Self.maximumInterval).contains(value) else {
          return nil
        }
        rule.interval = value
      }
      if let days = parts.removeValue(forKey: "BYDAY") {
        guard frequency == .weekly else { return nil }
        var weekdays: [Weekday] = []
        for code in days.split(separator: ",", omittingEmptySubsequences: false) {
          guard let day = Weekday(code: code), !weekdays.contains(day) else { return nil }
          weekdays.append(day)
        }
        rule.weekdays = weekdays.sorted()
      }
      if let day = parts.removeValue(forKey: "BYMONTHDAY") {
        let negative = day.first == "-"
        guard frequency == .monthly, let value = Self.integer(negative ? day.dropFirst() : day),
          (1...31).contains(value)
        else { return nil }
        rule.monthDay = negative ? -value : value
      }
      if let count = parts.removeValue(forKey: "COUNT") {
        guard let value = Self.integer(count), value >= 1 else { return nil }
        rule.count = value
      }
      if let until = parts.removeValue(forKey: "UNTIL") {
        guard rule.count == nil, let value = Until(parsing: until) else { return nil }
        rule.until = value
      }
      if let start = parts.removeValue(forKey: "WKST"), start != "MO" { return nil }
      guard parts.isEmpty else { return nil }
      self = rule
    }

    /// Digits alone (at most 9), as a number.
    private static func integer(_ text: Substring) -> Int? {
      guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
        return nil
      }
      return Int(text)
    }

    /// The rule as an RRULE value: `FREQ`, then `INTERVAL` unless 1,
    /// `BYDAY`, `BYMONTHDAY`, `COUNT`, `UNTIL`.
    package var text: String {
      var text = "FREQ=" + frequency.rawValue
      if interval != 1 { text += ";INTERVAL=\(interval)" }
      if !weekdays.isEmpty { text += ";BYDAY=" + weekdays.map(\.code).joined(separator: ",") }
      if let monthDay { text += ";BYMONTHDAY=\(monthDay)" }
      if let count { text += ";COUNT=\(count)" }
      if let until { text += ";UNTIL=" + until.text }
      return text
    }

    /// The first occurrence strictly after `time` (an occurrence or the
    /// rule's start) within `UNTIL` (`COUNT` is the caller's: see
    /// `Recurrence.advanced`), or nil when there is none up to the year 9999.
    /// A monthly rule skips months without its day (the 31st skips April),
    /// a yearly one years without it (29 February comes every leap year).
    ///
    /// - Parameter zone: where an `UNTIL` in UTC is compared.
    package func next(after time: LocalTime, in zone: TimeZone = TimeZone(secondsFromGMT: 0)!)
      -> LocalTime?
    {
      guard let next = nextIgnoringUntil(after: time) else { return nil }
      if let until, !until.allows(next, in: zone) { return nil }
      return next
    }

    private func nextIgnoringUntil(after time: LocalTime) -> LocalTime? {
      let today = time.daysSince1970
      switch frequency {
      case .daily:
        return Self.withinYears(time.movedTo(daysSince1970: today + interval))
      case .weekly:
        guard !weekdays.isEmpty else {
          return Self.withinYears(time.movedTo(daysSince1970: today + 7 * interval))
        }
        let weekStart = today - Weekday(daysSince1970: today).rawValue
        // Within the week after the next `interval` weeks, the first day
        // listed of a week `interval` weeks apart from this one.
        for day in (today + 1)...(today + 7 * interval + 7) {
          let weekday = Weekday(daysSince1970: day)
          let weeks = (day - weekday.rawValue - weekStart) / 7
          if weeks % interval == 0, weekdays.contains(weekday) {
            return Self.withinYears(time.movedTo(daysSince1970: day))
          }
        }
        return nil
      case .monthly:
        let start = time.year * 12 + time.month - 1
        let wanted = monthDay ?? time.day
        var month = start
        while month / 12 <= 9999 {
          let year = month / 12
          let length = CivilDate.days(inMonth: month % 12 + 1, ofYear: year)
          let day = wanted > 0 ? wanted : length + wanted + 1
          if (1...length).contains(day) {
            var candidate = time
            (candidate.year, candidate.month, candidate.day) = (year, month % 12 + 1, day)
            if time < candidate { return candidate }
          }
          month += interval
        }
        return nil
      case .yearly:
        var year = time.year + interval
        while year <= 9999 {
          if time.day <= CivilDate.days(inMonth: time.month, ofYear: year) {
            var candidate = time
            candidate.year = year
            return candidate
          }
          year += interval
        }
        return nil
      }
    }

    private static func withinYears(_ time: LocalTime) -> LocalTime? {
      time.year <= 9999 ? time : nil
    }
  }
}

extension Recurrence {
  /// Where checking an item due at `dueDate` moves it: its next due date
  /// (the same wall-clock time in `zone`, strictly later) and the
  /// recurrence after it (a `COUNT` one less); nil when the rule is outside
  /// the subset or its `COUNT` or `UNTIL` ends with this occurrence.
  package func advanced(from dueDate: Date, in zone: TimeZone) -> (
    dueDate: Date, recurrence: Recurrence
  )? {
    guard var rule, rule.count.map({ $0 > 1 }) ?? true else { return nil }
    var time = LocalTime(dueDate, in: zone)
    // A wall-clock time never later than the due date itself, until the
    // next one names a later instant (a day the clocks go back can repeat
    // an hour).
    for _ in 0..<4 {
      guard let next = rule.next(after: time, in: zone) else { return nil }
      let date = next.date(in: zone)
      if date > dueDate {
        guard DueDate.range.contains(date) else { return nil }
        guard let count = rule.count else { return (date, self) }
        rule.count = count - 1
        return (date, Recurrence(rule))
      }
      time = next
    }
    return nil
  }
}
