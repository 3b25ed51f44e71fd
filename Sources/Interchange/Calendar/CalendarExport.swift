import ChecklistsModel
import Foundation

/// Every item of every list as an iCalendar to-do (RFC 5545 `VTODO`), for a
/// calendar or task app to import: checked or not, dated or not.
///
/// Each to-do has a `UID` stable for its item (`todo-<id>-<salt>@checklists`,
/// the salt the feed's events use, `CalendarUID`, with another prefix so a
/// to-do never takes an event's place), the export's moment as `DTSTAMP`,
/// the text as `SUMMARY`, the list's name as its category, `DUE` (UTC)
/// when the item has a due date, `STATUS:COMPLETED` or `NEEDS-ACTION`,
/// and, when Remind me is on and the item has a due date, a display alarm
/// at the due time.
package enum CalendarExport {
  static let productID = "-//Checklists//Checklists Export//EN"

  /// The iCalendar file of `model`'s lists (display order) and items (the
  /// visitor's own order).
  ///
  /// - Parameters:
  ///   - visitorKey: the owner's directory key, from which the `UID`s'
  ///     salt is derived (see `CalendarUID`).
  ///   - exportedAt: the `DTSTAMP` of every to-do, in whole seconds.
  package static func document(_ model: DataModel, visitorKey: String, exportedAt: Date)
    -> [UInt8]
  {
    let itemCount = model.lists.reduce(0) { $0 + $1.items.count }
    var writer = ICalendarWriter(capacity: 256 + itemCount * 320)
    writer.line("BEGIN", "VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", productID)
    writer.line("CALSCALE", "GREGORIAN")
    writer.textLine("X-WR-CALNAME", "Checklists")
    let stamp = bytes {
      $0.line("DTSTAMP", utc: RFC3339.clampedSeconds(exportedAt.timeIntervalSince1970))
    }
    let uidPrefix = Array("UID:todo-".utf8)
    let uidSuffix = Array("-\(CalendarUID.salt(visitorKey: visitorKey))@checklists\r\n".utf8)
    let completed = bytes { $0.line("STATUS", "COMPLETED") }
    let needsAction = bytes { $0.line("STATUS", "NEEDS-ACTION") }
    let alarmHead = bytes {
      $0.line("BEGIN", "VALARM")
      $0.line("ACTION", "DISPLAY")
    }
    let alarmEnd = bytes { $0.line("END", "VALARM") }
    for list in model.lists {
      let category = bytes { $0.textLine("CATEGORIES", list.name) }
      for item in list.items {
        writer.line("BEGIN", "VTODO")
        writer.raw(uidPrefix)
        writer.appendNumber(item.id)
        writer.raw(uidSuffix)
        writer.raw(stamp)
        writer.textLine("SUMMARY", item.text)
        let due = item.dueDate.map { RFC3339.clampedSeconds($0.timeIntervalSince1970) }
        if let due { writer.line("DUE", utc: due) }
        writer.raw(item.checked ? completed : needsAction)
        writer.raw(category)
        if let due, item.shouldRemind {
          writer.raw(alarmHead)
          writer.line("TRIGGER;VALUE=DATE-TIME", utc: due)
          writer.textLine("DESCRIPTION", item.text)
          writer.raw(alarmEnd)
        }
        writer.line("END", "VTODO")
      }
    }
    writer.line("END", "VCALENDAR")
    return writer.bytes
  }

  /// What `write` writes, as bytes to copy again and again.
  private static func bytes(_ write: (inout ICalendarWriter) -> Void) -> [UInt8] {
    var writer = ICalendarWriter()
    write(&writer)
    return writer.bytes
  }
}
