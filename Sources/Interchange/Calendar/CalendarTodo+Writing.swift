import ChecklistsModel
import Foundation
import ICalendar
import Support

extension CalendarTodo {
  /// An item's resource: a `VCALENDAR` holding its `VTODO` (and the time
  /// zones its kept lines name).
  ///
  /// - Parameters:
  ///   - uid: the item's `UID` (the client's, or `CalendarUID`'s for an
  ///     item made on the web).
  ///   - stamp: `DTSTAMP` when the client sent none.
  ///   - sortOrder: `X-APPLE-SORT-ORDER`, the item's place in its list.
  ///   - zone: the owner's zone, in which a kept `DUE` is read again.
  package static func document(
    _ item: ChecklistItem, uid: String, stamp: Date, sortOrder: Int?, zone: TimeZone
  ) -> [UInt8] {
    var writer = ICalendarWriter(capacity: 512 + (item.calendar?.kept.utf8.count ?? 0))
    writer.line("BEGIN", "VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", productID)
    var zonesWritten: Set<String> = []
    appendTodo(
      item, uid: uid, stamp: stamp, sortOrder: sortOrder, category: nil, zone: zone,
      zonesWritten: &zonesWritten, into: &writer)
    writer.line("END", "VCALENDAR")
    return writer.bytes
  }

  /// An item's `VTODO` inside a `VCALENDAR` being written, after the
  /// `VTIMEZONE`s its kept lines hold that `zonesWritten` does not name yet
  /// (an export writes each zone once).
  ///
  /// `UID` and `X-APPLE-SORT-ORDER` first (the place is never kept: it is
  /// the list's), then the item's own lines where no kept line still says
  /// the same (`DTSTAMP`, `SUMMARY`, `DUE`, the status, `DESCRIPTION`, `RRULE`), the export's
  /// `CATEGORIES`, then every kept property in its order (the mapped ones
  /// only while they still hold), then the alarms and any other component:
  /// a to-do read, stored and written back unedited keeps its lines' order,
  /// and so its bytes and tag, the first time too (with the place after the
  /// status, the first write-back of what was served moved it).
  package static func appendTodo(
    _ item: ChecklistItem, uid: String, stamp: Date, sortOrder: Int?, category: String?,
    zone: TimeZone, zonesWritten: inout Set<String>, into writer: inout ICalendarWriter
  ) {
    let kept = KeptLines(item.calendar?.kept ?? "")
    for timeZone in kept.timeZones {
      let id = timeZone.property("TZID")?.value ?? ""
      guard zonesWritten.insert(id).inserted else { continue }
      for line in timeZone.lines { writer.append(line) }
    }
    writer.line("BEGIN", "VTODO")
    writer.line("UID", uid)
    if let sortOrder { writer.line("X-APPLE-SORT-ORDER", String(sortOrder)) }
    let stampKept = kept.first("DTSTAMP") != nil
    if !stampKept { writer.line("DTSTAMP", utc: seconds(stamp)) }
    let summaryKept = kept.first("SUMMARY").map {
      (try? TextInput.clean($0.textValue)) == item.text
    }
    if summaryKept != true { writer.textLine("SUMMARY", item.text) }
    let dueKept = kept.first("DUE").map { dueDate($0, zone: zone) == item.dueDate }
    if dueKept != true, let dueDate = item.dueDate { writer.line("DUE", utc: seconds(dueDate)) }
    let status = kept.properties.filter { statusNames.contains($0.name) }
    let statusKept = !status.isEmpty && isCompleted(status) == item.checked
    if !statusKept { writer.line("STATUS", item.checked ? "COMPLETED" : "NEEDS-ACTION") }
    // A kept DESCRIPTION with no note is an item stored before notes were
    // (a note cleared on the web drops the kept line: `editItem`).
    let notesKept = kept.first("DESCRIPTION").map {
      item.notes.isEmpty || (try? NoteInput.clean($0.textValue)) == item.notes
    }
    if notesKept != true, !item.notes.isEmpty { writer.textLine("DESCRIPTION", item.notes) }
    // An app's RRULE goes back as it came while the item repeats by it
    // (verbatim, in its place); else the item's own.
    let ruleKept = kept.first("RRULE").map { $0.value == item.recurrence?.text }
    if ruleKept != true, let recurrence = item.recurrence { writer.line("RRULE", recurrence.text) }
    if let category { writer.textLine("CATEGORIES", category) }
    for line in kept.properties {
      switch line.name {
      case "SUMMARY": if summaryKept == true { writer.append(line) }
      case "DUE": if dueKept == true { writer.append(line) }
      case "DESCRIPTION": if notesKept == true { writer.append(line) }
      case "RRULE": if ruleKept == true { writer.append(line) }
      case _ where statusNames.contains(line.name): if statusKept { writer.append(line) }
      default: writer.append(line)
      }
    }
    // The kept components in their order, the alarms among them only
    // while Remind me is on; without alarms of the client's, the item's own.
    let hasAlarms = kept.components.contains { $0.name == "VALARM" }
    for component in kept.components where component.name != "VALARM" || item.shouldRemind {
      for line in component.lines { writer.append(line) }
    }
    if item.shouldRemind && !hasAlarms, let dueDate = item.dueDate {
      writer.line("BEGIN", "VALARM")
      writer.line("ACTION", "DISPLAY")
      writer.line("TRIGGER;VALUE=DATE-TIME", utc: seconds(dueDate))
      writer.textLine("DESCRIPTION", item.text)
      writer.line("END", "VALARM")
    }
    writer.line("END", "VTODO")
  }

  /// Whole seconds since 1970 for `ICalendarWriter`, within what it writes.
  static func seconds(_ date: Date) -> Int64 {
    RFC3339.clampedSeconds(date.timeIntervalSince1970)
  }
}

/// An item's kept lines (`CalendarData.kept`) read back: the `VTODO`'s
/// properties and components, and the resource's time zones.
struct KeptLines {
  private(set) var properties: [ContentLine] = []
  private(set) var components: [Component] = []
  private(set) var timeZones: [Component] = []

  /// Lines that no longer read (which only a damaged file could hold) are
  /// left out whole: the item's own fields are written all the same.
  init(_ kept: String) {
    guard !kept.isEmpty,
      let lines = try? ContentLineReader.read(Array(("BEGIN:KEPT\n" + kept + "\nEND:KEPT").utf8)),
      let wrapper = try? Component.parse(lines)
    else { return }
    properties = wrapper.properties
    for component in wrapper.components {
      if component.name == "VTIMEZONE" {
        timeZones.append(component)
      } else {
        components.append(component)
      }
    }
  }

  func first(_ name: String) -> ContentLine? {
    properties.first { $0.name == name }
  }
}
