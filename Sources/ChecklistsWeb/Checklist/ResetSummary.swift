import ChecklistsModel
import Foundation

/// The line under a list's heading that says when it resets ("Resets every
/// week on Monday at 06:00; next: 1 Dec 06:00"), in the visitor's language,
/// the next reset in the visitor's zone as due dates are written
/// (`DueDateLabel`). The rule's time is in its own zone, named when it is
/// not the visitor's.
enum ResetSummary {
  /// ISO order, Monday first.
  static let weekdayNames = [
    translatable("Monday"), translatable("Tuesday"), translatable("Wednesday"),
    translatable("Thursday"), translatable("Friday"), translatable("Saturday"),
    translatable("Sunday"),
  ]

  /// The sentence for `reset`; `label` writes the next reset's date in the
  /// visitor's zone, named `visitorZone`.
  static func text(
    _ reset: ScheduledReset, label: DueDateLabel, visitorZone: String, catalogue: Catalogue
  ) -> String {
    let next = reset.due.map { label.text($0) }
    switch reset.rule {
    case .afterAllChecked(let hours):
      guard let next else {
        return catalogue.text(
          translatable(
            one: "Resets {{count}} hour after every item is checked",
            other: "Resets {{count}} hours after every item is checked"), count: hours)
      }
      return catalogue.text(
        translatable(
          one: "Resets {{count}} hour after every item is checked; next: {{next}}",
          other: "Resets {{count}} hours after every item is checked; next: {{next}}"),
        count: hours, [("next", next)])
    case .clock(let clock):
      var time = WallClockTime.clock(hour: clock.hour, minute: clock.minute)
      if clock.zone != visitorZone { time += " (\(clock.zone))" }
      var values = [(name: "time", value: time), (name: "next", value: next ?? "")]
      let phrase: String
      switch clock.days {
      case .everyDay: phrase = translatable("Resets every day at {{time}}; next: {{next}}")
      case .weekdays(let days):
        phrase = translatable("Resets every week on {{days}} at {{time}}; next: {{next}}")
        values.append(
          (
            "days",
            days.map { catalogue.text(weekdayNames[$0 - 1]) }.joined(separator: ", ")
          ))
      case .dayOfMonth(let day):
        phrase = translatable("Resets every month on day {{day}} at {{time}}; next: {{next}}")
        values.append(("day", String(day)))
      }
      return catalogue.text(phrase, values)
    }
  }
}
