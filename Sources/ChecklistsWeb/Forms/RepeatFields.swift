import ChecklistsModel
import Foundation
import HTMLTemplates

/// The item form's Repeat fields, as the item holds them or as they were
/// sent: `repeat` (never, daily, weekly, monthly, yearly, or custom for an
/// app's rule kept as it is), `interval` ("every N"), the weekly rule's
/// `weekday` boxes (MO … SU) and the monthly rule's `monthDay` (1–31, -1
/// for the last day, empty for the due date's own).
struct RepeatFields {
  var choice: String
  var interval: String
  var weekdays: [String]
  var monthDay: String
  /// The rule outside the subset the item repeats by, shown as it is.
  var customText: String?

  /// What a form without Repeat fields (a page from before them, an edit
  /// link's form) changes: nothing.
  enum Edit {
    case unchanged
    case set(Recurrence?)
  }

  /// The longest `interval` taken.
  static let maximumInterval = 1_000

  /// The fields of `item` as stored.
  init(_ item: ChecklistItem) {
    let rule = item.recurrence?.rule
    choice = item.recurrence == nil ? "never" : rule?.frequency.rawValue.lowercased() ?? "custom"
    interval = String(rule?.interval ?? 1)
    weekdays = rule?.weekdays.map(\.code) ?? []
    monthDay = rule?.monthDay.map(String.init) ?? ""
    customText = rule == nil ? item.recurrence?.text : nil
  }

  /// The fields as sent, or nil when the form has none.
  init?(_ form: FormData, current: ChecklistItem?) {
    guard let choice = form["repeat"] else { return nil }
    self.choice = choice
    interval = form["interval"] ?? "1"
    weekdays = form.values(named: "weekday")
    monthDay = form["monthDay"] ?? ""
    customText = current.flatMap { $0.recurrence?.rule == nil ? $0.recurrence?.text : nil }
  }

  /// What the fields ask of an item that is now `current` and is to be due
  /// at `dueDate`: a rule equal to the item's own but for its `COUNT` or
  /// `UNTIL` (which the form does not show) leaves it as it is, so saving
  /// the form unchanged keeps an app's rule to the byte.
  ///
  /// - Returns: the change, or the sentence saying why it is refused.
  func edit(current: Recurrence?, dueDate: Date?) -> Result<Edit, RefusedRepeat> {
    let frequency: Recurrence.Frequency
    switch choice {
    case "never", "": return .success(.set(nil))
    case "custom": return .success(.unchanged)
    case "daily": frequency = .daily
    case "weekly": frequency = .weekly
    case "monthly": frequency = .monthly
    case "yearly": frequency = .yearly
    default: return .failure(.unknownChoice)
    }
    guard let every = Int(interval.trimmingCharacters(in: .whitespaces)),
      (1...Self.maximumInterval).contains(every)
    else { return .failure(.interval) }
    guard dueDate != nil else { return .failure(.needsDueDate) }
    var rule = Recurrence.Rule(frequency: frequency, interval: every)
    if frequency == .weekly {
      var days: [Recurrence.Weekday] = []
      for code in weekdays {
        guard let day = Recurrence.Weekday(code: code) else { return .failure(.unknownChoice) }
        if !days.contains(day) { days.append(day) }
      }
      rule.weekdays = days.sorted()
    }
    if frequency == .monthly, !monthDay.isEmpty {
      guard let day = Int(monthDay), (1...31).contains(day) || day == -1 else {
        return .failure(.monthDay)
      }
      rule.monthDay = day
    }
    if var kept = current?.rule {
      kept.count = nil
      kept.until = nil
      if kept == rule { return .success(.unchanged) }
    }
    return .success(.set(Recurrence(rule)))
  }

  /// Why the Repeat fields were refused (each `400`, the form shown again).
  enum RefusedRepeat: Error {
    case unknownChoice, interval, needsDueDate, monthDay

    var phrase: String {
      switch self {
      case .unknownChoice: translatable("Choose how the item repeats from the list.")
      case .interval:
        translatable("Every: type a whole number from 1 to 1000 (1 is every time, 2 every other).")
      case .needsDueDate:
        translatable("A repeating item needs a due date: type one, or choose Never.")
      case .monthDay: translatable("Choose a day of the month from 1 to 31, or the last day.")
      }
    }
  }

  /// The template's values (`item-form`): `repeat.<choice>`, `interval`,
  /// `weekday.<code>`, `monthDays` and `monthDayLast`.
  var templateValues: [String: TemplateValue] {
    var choices: [String: TemplateValue] = [choice: true]
    if let customText { choices["customText"] = .string(customText) }
    var days: [String: TemplateValue] = [:]
    for code in weekdays { days[code] = true }
    let chosenDay = Int(monthDay)
    return [
      "repeat": .object(TemplateObject(choices)),
      "interval": .string(interval),
      "weekday": .object(TemplateObject(days)),
      "monthDays": .list(
        (1...31).map { day in
          .object(TemplateObject(["value": .int(day), "selected": .bool(day == chosenDay)]))
        }),
      "monthDayLast": .bool(chosenDay == -1),
    ]
  }
}
