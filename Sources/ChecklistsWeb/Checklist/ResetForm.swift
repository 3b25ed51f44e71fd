import ChecklistsModel
import HTMLTemplates

/// Edit List's Scheduled Reset fieldset: its fields as typed, read into a
/// `ResetRule`, and its template values. Fields: `reset` (`none`, `daily`,
/// `weekly`, `monthly`, `afterAllChecked`), `resetTime` (`HH:MM`),
/// `resetWeekday` (ISO 1–7, repeated), `resetDay` (1–31), `resetHours`
/// (1–720). A form without `reset` leaves the rule as it is.
struct ResetForm {
  enum Kind: String, CaseIterable {
    case none, daily, weekly, monthly, afterAllChecked
  }

  var kind: String
  var time: String
  var weekdays: [String]
  var day: String
  var hours: String

  /// The fields of a list's rule (the form as Edit List shows it first).
  init(_ reset: ScheduledReset?) {
    kind = Kind.none.rawValue
    time = "06:00"
    weekdays = []
    day = "1"
    hours = "24"
    guard let rule = reset?.rule else { return }
    switch rule {
    case .afterAllChecked(let count):
      kind = Kind.afterAllChecked.rawValue
      hours = String(count)
    case .clock(let clock):
      time = WallClockTime.clock(hour: clock.hour, minute: clock.minute)
      switch clock.days {
      case .everyDay: kind = Kind.daily.rawValue
      case .weekdays(let days):
        kind = Kind.weekly.rawValue
        weekdays = days.map(String.init)
      case .dayOfMonth(let value):
        kind = Kind.monthly.rawValue
        day = String(value)
      }
    }
  }

  /// The fields as a form sent them; nil when it has no `reset` field.
  init?(_ form: FormData) {
    guard let kind = form["reset"] else { return nil }
    self.kind = kind
    time = form["resetTime"] ?? ""
    weekdays = form.values(named: "resetWeekday")
    day = form["resetDay"] ?? ""
    hours = form["resetHours"] ?? ""
  }

  /// Why the fields are not a rule: a sentence for the visitor.
  struct Refusal: Error {
    let message: String
  }

  /// The rule the fields say, in `zone` (the owner's); nil for none.
  func rule(zone: String) throws(Refusal) -> ResetRule? {
    guard let kind = Kind(rawValue: kind) else {
      throw Refusal(message: translatable("Please choose when the list resets."))
    }
    switch kind {
    case .none: return nil
    case .afterAllChecked:
      guard let count = Self.integer(hours),
        let rule = ResetRule.afterAllChecked(checkedHours: count)
      else {
        throw Refusal(
          message: translatable("Please give a number of hours from 1 to 720 for the reset."))
      }
      return rule
    case .daily, .weekly, .monthly:
      guard let (hour, minute) = Self.clock(time) else {
        throw Refusal(message: translatable("Please give the reset’s time, such as 06:00."))
      }
      let days: ResetClock.Days
      switch kind {
      case .weekly:
        let numbers = weekdays.compactMap(Self.integer)
        guard !numbers.isEmpty, numbers.count == weekdays.count,
          numbers.allSatisfy({ (1...7).contains($0) })
        else {
          throw Refusal(message: translatable("Please choose at least one day of the week."))
        }
        days = .weekdays(numbers)
      case .monthly:
        guard let value = Self.integer(day), (1...31).contains(value) else {
          throw Refusal(message: translatable("Please give a day of the month from 1 to 31."))
        }
        days = .dayOfMonth(value)
      default: days = .everyDay
      }
      guard let clock = ResetClock(days: days, hour: hour, minute: minute, zone: zone) else {
        throw Refusal(message: translatable("Please give the reset’s time, such as 06:00."))
      }
      return .clock(clock)
    }
  }

  /// `HH:MM`, or `HH:MM:SS` (seconds dropped), as a time input sends it.
  static func clock(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
      let hour = integer(String(parts[0])), let minute = integer(String(parts[1])),
      (0...23).contains(hour), (0...59).contains(minute),
      parts.count == 2 || integer(String(parts[2])).map({ (0...59).contains($0) }) == true
    else { return nil }
    return (hour, minute)
  }

  /// Decimal digits only (no sign, no spaces), at most 4.
  static func integer(_ text: String) -> Int? {
    guard !text.isEmpty, text.count <= 4, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      return nil
    }
    return Int(text)
  }

  /// The fieldset's template values.
  func values(catalogue: Catalogue) -> TemplateValue {
    let kinds: [TemplateValue] = [
      (Kind.none, translatable("Never")),
      (Kind.daily, translatable("Every day")),
      (Kind.weekly, translatable("On chosen days of the week")),
      (Kind.monthly, translatable("On a day of the month")),
      (Kind.afterAllChecked, translatable("A number of hours after every item is checked")),
    ].map { kind, label in
      [
        "value": .string(kind.rawValue), "label": .string(catalogue.text(label)),
        "checked": .bool(kind.rawValue == self.kind),
      ]
    }
    let days: [TemplateValue] = ResetSummary.weekdayNames.enumerated().map { index, name in
      [
        "value": .int(index + 1), "label": .string(catalogue.text(name)),
        "checked": .bool(weekdays.contains(String(index + 1))),
      ]
    }
    return [
      "kinds": .list(kinds), "weekdays": .list(days), "time": .string(time),
      "day": .string(day), "hours": .string(hours),
    ]
  }
}
