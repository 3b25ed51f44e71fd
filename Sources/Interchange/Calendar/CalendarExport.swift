import ChecklistsModel
import Foundation
import ICalendar

/// Every item of every list as an iCalendar to-do (RFC 5545 `VTODO`), for a
/// calendar or task app to import: checked or not, dated or not.
///
/// Each to-do is what CalDAV serves for its item (`CalendarTodo`, one
/// mapping): a `UID` stable for its item (`CalendarUID`), the export's
/// moment as `DTSTAMP`, the text as `SUMMARY`, `DUE` (UTC) when the item
/// has a due date, `STATUS:COMPLETED` or `NEEDS-ACTION`, the list's name as
/// its category, and, when Remind me is on and the item has a due date, a
/// display alarm at the due time; an item a calendar app wrote carries the
/// lines the app wrote besides.
package enum CalendarExport {
  static let productID = "-//Checklists//Checklists Export//EN"

  /// The iCalendar file of `model`'s lists (display order) and items (the
  /// visitor's own order).
  ///
  /// - Parameters:
  ///   - visitorKey: the owner's directory key, from which the `UID`s'
  ///     salt is derived (see `CalendarUID`).
  ///   - exportedAt: the `DTSTAMP` of every to-do a calendar app did not
  ///     give one, in whole seconds.
  ///   - zone: the owner's zone, in which a `DUE` an app wrote is read again.
  package static func document(
    _ model: DataModel, visitorKey: String, exportedAt: Date, zone: TimeZone = .gmt
  ) -> [UInt8] {
    let itemCount = model.lists.reduce(0) { $0 + $1.items.count }
    var writer = ICalendarWriter(capacity: 256 + itemCount * 320)
    writer.line("BEGIN", "VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", productID)
    writer.line("CALSCALE", "GREGORIAN")
    writer.textLine("X-WR-CALNAME", "Checklists")
    let salt = CalendarUID.salt(visitorKey: visitorKey)
    var zonesWritten: Set<String> = []
    for list in model.lists {
      for item in list.items {
        CalendarTodo.appendTodo(
          item, uid: CalendarUID.uid(of: item, salt: salt), stamp: exportedAt, sortOrder: nil,
          category: list.name, zone: zone, zonesWritten: &zonesWritten, into: &writer)
      }
    }
    writer.line("END", "VCALENDAR")
    return writer.bytes
  }
}
