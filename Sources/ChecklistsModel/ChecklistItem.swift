import Foundation

/// One line of a checklist: its text, its checkmark, when it is due, and
/// its note.
package struct ChecklistItem: Sendable, Equatable {
  /// Stable within the visitor's data and never reused, even after deletion.
  package let id: Int
  /// Cleaned text (see `TextInput.clean`).
  package var text: String
  /// Whether the item is done.
  package var checked: Bool
  /// When it is due, in whole seconds (a property list keeps no finer), or
  /// nil; always within `DueDate.range`.
  package var dueDate: Date?
  /// Whether the visitor's calendar reminds them at the due date.
  package var shouldRemind: Bool
  /// A note of several lines shown under the item (cleaned by
  /// `NoteInput.clean`), empty for none; a calendar's `DESCRIPTION`.
  package var notes: String
  /// What a calendar app wrote that the item does not hold, or nil for an
  /// item no app has written (see `CalendarData`).
  package var calendar: CalendarData?
  /// How the due date repeats, or nil when it does not (see `Recurrence`).
  package var recurrence: Recurrence?
  /// When a repeating item was last checked (and so moved on), or nil.
  package var lastDone: Date?

  package init(
    id: Int, text: String, checked: Bool = false, dueDate: Date? = nil, shouldRemind: Bool = false,
    notes: String = "", calendar: CalendarData? = nil, recurrence: Recurrence? = nil,
    lastDone: Date? = nil
  ) {
    self.id = id
    self.text = text
    self.checked = checked
    self.dueDate = dueDate
    self.shouldRemind = shouldRemind
    self.notes = notes
    self.calendar = calendar
    self.recurrence = recurrence
    self.lastDone = lastDone
  }

  /// True when it is unchecked and its due date has passed at `now`.
  package func isOverdue(at now: Date) -> Bool {
    guard !checked, let dueDate else { return false }
    return dueDate < now
  }
}

extension ChecklistItem: Codable {
  enum CodingKeys: String, CodingKey {
    case id, text, checked, dueDate, shouldRemind, notes, calendar, recurrence, lastDone
  }

  /// Version 1 files have no `dueDate` or `shouldRemind`: an item read from
  /// one has neither. `notes` is written only when there is a note, `recurrence` (the RRULE's text) and `lastDone` only when the item repeats. Only an item a calendar app wrote has `calendar`. `shouldRemind` is written only when true (most items
  /// have no reminder; the key would cost a full visitor a fifth of the
  /// items their file holds).
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    text = try container.decode(String.self, forKey: .text)
    checked = try container.decode(Bool.self, forKey: .checked)
    let dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
    if let dueDate {
      guard let stored = DueDate.stored(dueDate) else {
        throw DecodingError.dataCorruptedError(
          forKey: .dueDate, in: container, debugDescription: "due date outside 1970-9999")
      }
      self.dueDate = stored
    } else {
      self.dueDate = nil
    }
    shouldRemind = try container.decodeIfPresent(Bool.self, forKey: .shouldRemind) ?? false
    notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
    calendar = try container.decodeIfPresent(CalendarData.self, forKey: .calendar)
    recurrence = try container.decodeIfPresent(String.self, forKey: .recurrence).map(
      Recurrence.init(text:))
    lastDone = try container.decodeIfPresent(Date.self, forKey: .lastDone)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(calendar, forKey: .calendar)
    try container.encode(checked, forKey: .checked)
    try container.encodeIfPresent(dueDate, forKey: .dueDate)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(lastDone, forKey: .lastDone)
    if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    try container.encodeIfPresent(recurrence?.text, forKey: .recurrence)
    if shouldRemind { try container.encode(true, forKey: .shouldRemind) }
    try container.encode(text, forKey: .text)
  }
}

/// The dates an item may be due at.
package enum DueDate {
  /// From 1970-01-01T00:00:00Z to the last second of 9999 (UTC): what a
  /// calendar, a form and a property list all represent.
  package static let range =
    Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

  /// A due date as a file holds it: in whole seconds, or nil outside `range`.
  package static func stored(_ date: Date) -> Date? {
    range.contains(date) ? wholeSeconds(date) : nil
  }

  /// `date` without its fraction of a second.
  package static func wholeSeconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }
}
