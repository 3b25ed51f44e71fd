import ChecklistsModel
import Foundation
import ICalendar
import Support

/// One to-do as a calendar app writes it over CalDAV, and the one mapping
/// between a `VTODO` and a checklist item, both ways:
///
/// - `SUMMARY` ↔ the text (cleaned as a typed text is);
/// - `DESCRIPTION` ↔ the note (cleaned as a typed note is; none without one);
/// - `STATUS:COMPLETED` (or a `COMPLETED` date without a `STATUS`) ↔ checked;
/// - `DUE` ↔ the due date: a date-time in UTC as it is, one with a `TZID`
///   in that zone (the owner's when the server does not know it), a
///   floating one in the owner's zone, a date alone at 09:00 there (as the
///   web's form takes a date alone);
/// - `RRULE` ↔ how the due date repeats (`Recurrence`: its value as
///   written, understood when within the subset, kept verbatim otherwise);
/// - any `VALARM` ↔ Remind me;
/// - `X-APPLE-SORT-ORDER` ↔ the item's place in its list (the caller's).
///
/// Every other line the app wrote is kept (`kept`, stored with the item as
/// `CalendarData`) and written back unchanged, in its order and spelling:
/// `PRIORITY`, `CATEGORIES`, `RELATED-TO`, the
/// alarms, unknown `X-` properties and parameters, and the `VTIMEZONE`s the
/// resource carried. The mapped lines are kept too: one is written back as
/// it was as long as it still says what the item says (a `DUE` in Berlin's
/// time stays so while the due date is unchanged), and replaced by the
/// item's own when an edit on the web changed it.
package struct CalendarTodo: Sendable, Equatable {
  /// The `UID` as written (its raw value).
  package var uid: String
  package var text: String
  package var checked: Bool
  package var dueDate: Date?
  package var shouldRemind: Bool
  /// `DESCRIPTION`, cleaned as a note; empty without one.
  package var notes: String
  /// `X-APPLE-SORT-ORDER`, when the app sent one.
  package var sortOrder: Int?
  /// The lines kept, unfolded, one a line (see `CalendarData.kept`).
  package var kept: String
  /// The first `RRULE`'s value, when the app sent one (its line is kept too).
  package var recurrence: Recurrence? = nil

  /// The most a to-do's kept lines may hold: a long note and a few alarms.
  package static let maximumKeptBytes = 32 * 1024
  /// The longest `UID` taken (clients use a UUID, 36 characters).
  package static let maximumUIDBytes = 255
  /// What a to-do's resource says it was made by.
  static let productID = "-//Checklists//Checklists CalDAV//EN"
}

/// Why a client's calendar resource was refused as a to-do.
package enum CalendarTodoError: Error, Equatable, Sendable {
  /// Not iCalendar at all (see `ICalendarError`).
  case syntax(ICalendarError)
  /// The resource's one component is not a `VCALENDAR`.
  case notACalendar(found: String)
  /// It holds a component other than one `VTODO` (and its time zones).
  case unsupportedComponent(String)
  /// It holds no `VTODO`.
  case noTodo
  /// It holds more than one `VTODO` (a recurring to-do's overridden instances too).
  case moreThanOneTodo
  /// The `VTODO` has no `UID`, or one longer than `CalendarTodo.maximumUIDBytes`.
  case badUID
  /// The `VTODO` has no `SUMMARY`.
  case noSummary
  /// The `SUMMARY` is refused as a typed text would be.
  case text(ChecklistsError)
  /// The `DESCRIPTION` is refused as a typed note would be.
  case notes(ChecklistsError)
  /// `DUE` is not a date or date-time, or falls outside 1970-9999.
  case badDueDate
  /// The lines kept with the item would pass `CalendarTodo.maximumKeptBytes`.
  case tooMuchKept(limit: Int)

  package var message: String {
    switch self {
    case .syntax(let error): "not valid iCalendar: \(error.message)"
    case .notACalendar(let found): "a VCALENDAR was expected, not \(found)"
    case .unsupportedComponent(let name):
      "only to-dos (VTODO) are stored here, not \(name)"
    case .noTodo: "the calendar holds no VTODO"
    case .moreThanOneTodo: "one resource holds one VTODO, and this one holds more"
    case .badUID: "the VTODO needs a UID of at most \(CalendarTodo.maximumUIDBytes) bytes"
    case .noSummary: "the VTODO needs a SUMMARY"
    case .text(let error): "SUMMARY: \(error.message)"
    case .notes(let error): "DESCRIPTION: \(error.message)"
    case .badDueDate: "DUE must be a date or date-time between 1970 and 9999"
    case .tooMuchKept(let limit): "the to-do holds more than \(limit) bytes besides its title"
    }
  }
}

extension CalendarTodo {
  /// The names of the lines that map onto the item: kept, and written back
  /// only while they still say what the item says.
  static let statusNames: Set<String> = ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]

  /// Reads a client's resource: one `VCALENDAR` holding one `VTODO` (and
  /// the `VTIMEZONE`s its dates name).
  ///
  /// - Parameter zone: the owner's time zone, for floating and all-day dates.
  package static func read(_ bytes: [UInt8], zone: TimeZone) throws(CalendarTodoError)
    -> CalendarTodo
  {
    let calendar: Component
    do {
      calendar = try Component.parse(try ContentLineReader.read(bytes))
    } catch {
      throw .syntax(error)
    }
    guard calendar.name == "VCALENDAR" else { throw .notACalendar(found: calendar.name) }
    var todo: Component?
    var zones: [Component] = []
    for component in calendar.components {
      switch component.name {
      case "VTODO":
        guard todo == nil else { throw .moreThanOneTodo }
        todo = component
      case "VTIMEZONE":
        // One zone per TZID (RFC 5545 §3.6.5); a repeated one says nothing more.
        let id = component.property("TZID")?.value
        if !zones.contains(where: { $0.property("TZID")?.value == id }) { zones.append(component) }
      default: throw .unsupportedComponent(component.name)
      }
    }
    guard let todo else { throw .noTodo }
    return try read(todo, zones: zones, zone: zone)
  }

  private static func read(_ todo: Component, zones: [Component], zone: TimeZone)
    throws(CalendarTodoError) -> CalendarTodo
  {
    guard let uid = todo.property("UID")?.value, !uid.isEmpty, uid.utf8.count <= maximumUIDBytes
    else { throw .badUID }
    guard let summary = todo.property("SUMMARY") else { throw .noSummary }
    let text: String
    do {
      text = try TextInput.clean(summary.textValue)
    } catch {
      throw .text(error)
    }
    var notes = ""
    if let description = todo.property("DESCRIPTION") {
      do {
        notes = try NoteInput.clean(description.textValue)
      } catch {
        throw .notes(error)
      }
    }
    var dueDate: Date?
    if let due = todo.property("DUE") {
      guard let date = Self.dueDate(due, zone: zone) else { throw .badDueDate }
      dueDate = date
    }
    var kept: [ContentLine] = []
    for line in todo.properties where line.name != "UID" && line.name != "X-APPLE-SORT-ORDER" {
      kept.append(line)
    }
    for component in todo.components {
      // A to-do holds alarms and a client's own X- components (RFC 5545
      // §3.6.2), never a time zone or another to-do.
      guard component.name == "VALARM" || component.name.hasPrefix("X-") else {
        throw .unsupportedComponent(component.name)
      }
      kept.append(contentsOf: component.lines)
    }
    for component in zones { kept.append(contentsOf: component.lines) }
    let keptText = kept.map(\.text).joined(separator: "\n")
    guard keptText.utf8.count <= maximumKeptBytes else {
      throw .tooMuchKept(limit: maximumKeptBytes)
    }
    return CalendarTodo(
      uid: uid, text: text, checked: isCompleted(todo.properties), dueDate: dueDate,
      shouldRemind: todo.components.contains { $0.name == "VALARM" }, notes: notes,
      sortOrder: todo.property("X-APPLE-SORT-ORDER").flatMap { Int($0.value) },
      kept: keptText, recurrence: todo.property("RRULE").map { Recurrence(text: $0.value) })
  }

  /// `STATUS:COMPLETED`, or a `COMPLETED` date when there is no `STATUS`.
  static func isCompleted(_ properties: [ContentLine]) -> Bool {
    if let status = properties.first(where: { $0.name == "STATUS" }) {
      return status.keyword == "COMPLETED"
    }
    return properties.contains { $0.name == "COMPLETED" }
  }

  /// The instant `line` (a `DUE`) names, in whole seconds, or nil when it
  /// is malformed or outside `DueDate.range`.
  static func dueDate(_ line: ContentLine, zone: TimeZone) -> Date? {
    guard let value = DateTimeValue(line) else { return nil }
    let date: Date?
    switch value.form {
    case .utc:
      let days = CivilDate.daysSince1970(year: value.year, month: value.month, day: value.day)
      date = Date(
        timeIntervalSince1970: Double(
          days * 86_400 + value.hour * 3_600 + value.minute * 60 + value.second))
    case .date:
      date = wallClock(value, hour: 9, minute: 0, second: 0, zone: zone)
    case .local(let zoneID):
      // A TZID may start with "/" (a globally unique id, §3.2.19).
      let named = zoneID.flatMap { TimeZone(identifier: String($0.drop { $0 == "/" })) }
      date = wallClock(
        value, hour: value.hour, minute: value.minute, second: value.second, zone: named ?? zone)
    }
    guard let date, DueDate.range.contains(date) else { return nil }
    return DueDate.wholeSeconds(date)
  }

  private static func wallClock(
    _ value: DateTimeValue, hour: Int, minute: Int, second: Int, zone: TimeZone
  ) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.date(
      from: DateComponents(
        year: value.year, month: value.month, day: value.day, hour: hour, minute: minute,
        second: second))
  }
}

extension CalendarTodo {
  /// The item's fields this to-do sets, for `resource` in its collection.
  package func fields(resource: String) -> CalendarItemFields {
    CalendarItemFields(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind, notes: notes,
      calendar: CalendarData(uid: uid, resource: resource, kept: kept), recurrence: recurrence)
  }
}
