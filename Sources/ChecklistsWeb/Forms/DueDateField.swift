import ChecklistsModel
import Foundation

/// The item form's due date field: what a visitor typed or their browser's
/// date picker sent, read as a wall-clock time in their zone.
enum DueDateField {
  /// Why a due date was refused (`400`, the form shown again as typed).
  enum Refusal: Error, Equatable {
    /// Not a date and time in one of the forms `WallClockTime` reads.
    case malformed(String)
    /// A date, but before 1970 or after 9999 once in UTC.
    case outOfRange

    var message: String { message(in: Catalogue(madeFromEnglish: .english)) }

    /// The sentence in the visitor's language; what was typed stays as typed.
    func message(in catalogue: Catalogue) -> String {
      switch self {
      case .malformed(let typed):
        catalogue.text(
          translatable(
            "“{{typed}}” is not a date and time. Please write it as year-month-day and hours:minutes, such as 2030-05-12 14:30 (a date alone is due at 09:00), or leave it empty for no due date."
          ), [("typed", String(typed.prefix(40)))])
      case .outOfRange: ChecklistsError.dueDateOutOfRange.message(in: catalogue)
      }
    }
  }

  /// The due date `text` names in `zone`, whole seconds; nil when it is
  /// empty (or only spaces): no due date.
  static func parse(_ text: String, in zone: TimeZone) throws(Refusal) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return nil }
    guard let wall = WallClockTime(parsing: trimmed) else { throw .malformed(trimmed) }
    // The year as typed, then the instant: 1970-01-01 00:30 in Berlin is
    // still 1969 in UTC, which no calendar feed or file keeps.
    guard (1970...9999).contains(wall.year) else { throw .outOfRange }
    let date = wall.date(in: zone)
    guard DueDate.range.contains(date) else { throw .outOfRange }
    return date
  }
}
