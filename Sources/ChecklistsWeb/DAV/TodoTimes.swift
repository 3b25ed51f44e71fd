import Foundation
import ICalendar

/// The dates that place a to-do in time, and whether it overlaps a
/// `time-range` by the table of RFC 4791 §9.9 for `VTODO`: by `DTSTART`
/// with its `DURATION` or its `DUE`, else by `DUE`, else by `COMPLETED`
/// and `CREATED`, else it overlaps every range.
struct TodoTimes: Equatable {
  var start: Date?
  /// `DTSTART` + `DURATION`, when the to-do has both.
  var durationEnd: Date?
  var due: Date?
  var completed: Date?
  var created: Date?
  /// It has an `RRULE` or `RDATE`: instances after the first are not
  /// worked out, so it is taken as running on from its first.
  var recurs = false

  init(
    start: Date? = nil, durationEnd: Date? = nil, due: Date? = nil, completed: Date? = nil,
    created: Date? = nil, recurs: Bool = false
  ) {
    self.start = start
    self.durationEnd = durationEnd
    self.due = due
    self.completed = completed
    self.created = created
    self.recurs = recurs
  }

  /// The times of `todo`, its floating and all-day dates read in `zone`
  /// (the owner's); a date that does not read counts as absent.
  init(_ todo: Component, zone: TimeZone) {
    func date(_ name: String) -> Date? {
      todo.property(name).flatMap { Self.instant($0, zone: zone) }
    }
    start = date("DTSTART")
    due = date("DUE")
    completed = date("COMPLETED")
    created = date("CREATED")
    if let start, let line = todo.property("DTSTART"), let duration = todo.property("DURATION"),
      let value = DurationValue(duration.value)
    {
      // Days are the calendar's of the zone DTSTART is in.
      let days: TimeZone =
        switch DateTimeValue(line)?.form {
        case .utc: .gmt
        default: Self.zone(of: line, default: zone)
        }
      durationEnd = value.added(to: start, in: days) ?? .distantFuture
    }
    recurs = todo.property("RRULE") != nil || todo.property("RDATE") != nil
  }

  /// Whether the to-do overlaps `[start, end)` (RFC 4791 §9.9's `VTODO`
  /// table, row by row; a recurring one from its first instance on).
  func overlaps(start rangeStart: Date, end: Date) -> Bool {
    let start = recurs ? Date.distantPast : rangeStart
    if let begins = self.start {
      if let due {
        return (start < due || start <= begins) && (end > begins || end >= due)
      }
      if let durationEnd {
        return start <= durationEnd && (end > begins || end >= durationEnd)
      }
      return start <= begins && end > begins
    }
    if let due { return start < due && end >= due }
    switch (completed, created) {
    case (let completed?, let created?):
      return (start <= created || start <= completed) && (end >= created || end >= completed)
    case (let completed?, nil): return start <= completed && end >= completed
    case (nil, let created?): return end > created
    case (nil, nil): return true
    }
  }

  /// The instant a date or date-time names: one in UTC as it is, one with
  /// a `TZID` in that zone (`zone` when it is not known here), a floating
  /// one in `zone`, a date alone at its start there.
  static func instant(_ line: ContentLine, zone: TimeZone) -> Date? {
    guard let value = DateTimeValue(line) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone =
      switch value.form {
      case .utc: .gmt
      case .date, .local: Self.zone(of: line, default: zone)
      }
    return calendar.date(
      from: DateComponents(
        year: value.year, month: value.month, day: value.day, hour: value.hour,
        minute: value.minute, second: value.second))
  }

  /// The zone a line's `TZID` names (a leading `/`, a globally unique id,
  /// left out), else `zone`.
  static func zone(of line: ContentLine, default zone: TimeZone) -> TimeZone {
    line.parameter("TZID").flatMap { TimeZone(identifier: String($0.drop { $0 == "/" })) }
      ?? zone
  }
}
