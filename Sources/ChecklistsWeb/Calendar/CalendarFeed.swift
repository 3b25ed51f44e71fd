import ChecklistsModel
import Foundation
import ICalendar
import Interchange

/// A visitor's reminders as an iCalendar file (RFC 5545): one `VEVENT` for
/// each unchecked item with Remind me on and a due date still to come,
/// at its due time, with a `VALARM` that shows the item then.
///
/// The file depends on the visitor's checklists and on the moment it is
/// asked for (a due date that passes takes its event out), and on nothing
/// else: `DTSTAMP` is the feed's own last change (`lastModified`), not the
/// time of the request, so an unchanged feed is byte for byte the same and
/// a calendar's next poll is a `304`.
package struct CalendarFeed {
  /// How long an event lasts in the calendar: a reminder is a moment, and
  /// a short block shows in every calendar app (some hide events of no
  /// length).
  static let eventDuration = "PT15M"
  /// How often calendar apps are asked to fetch the feed again (RFC 7986
  /// `REFRESH-INTERVAL`, and the older `X-PUBLISHED-TTL`).
  static let refreshInterval = "PT1H"
  static let calendarName = "Checklists"
  static let productID = "-//Checklists//Checklists Calendar//EN"

  /// An item in the feed, with the name of its list.
  package struct Event {
    package var item: ChecklistItem
    package var dueSeconds: Int64
    /// The index of its list in `listNames`.
    package var list: Int
  }

  /// The names of the lists the events are in.
  package let listNames: [String]

  /// The events, in the visitor's lists' order and each list's own order.
  package let events: [Event]
  /// The last moment the feed changed (whole seconds since 1970): the
  /// checklists file's last write, or a later due date that has passed
  /// since (its event left the feed then).
  package let lastModified: Int64
  /// What makes each item's `UID` this visitor's (see `uid(of:)` and
  /// `CalendarUID`, which the to-do export shares).
  let uidSalt: String

  /// The feed of `model` at `now`.
  ///
  /// - Parameters:
  ///   - visitorKey: the visitor's directory key, from which the `UID`s'
  ///     salt is derived (one way: a `UID` reveals neither the key, nor the
  ///     visitor's id, nor the calendar's secret).
  ///   - storedAt: the seconds since 1970 of the last write the feed
  ///     follows (the checklists file's, or the secret's when none is stored).
  package init(model: DataModel, visitorKey: String, now: Date, storedAt: Int64) {
    let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
    var events: [Event] = []
    var listNames: [String] = []
    var lastModified = storedAt
    for list in model.lists {
      var listIndex: Int?
      for item in list.items where !item.checked && item.shouldRemind {
        guard let due = item.dueDate else { continue }
        let dueSeconds = Int64(due.timeIntervalSince1970)
        if dueSeconds > nowSeconds {
          if listIndex == nil {
            listIndex = listNames.count
            listNames.append(list.name)
          }
          events.append(Event(item: item, dueSeconds: dueSeconds, list: listIndex!))
        } else {
          lastModified = max(lastModified, dueSeconds)
        }
      }
    }
    self.events = events
    self.listNames = listNames
    self.lastModified = min(lastModified, nowSeconds)
    self.uidSalt = CalendarUID.salt(visitorKey: visitorKey)
  }

  /// The item's `UID`: its id (stable for good, through edits, moves and
  /// an undone deletion) and the visitor's salt.
  func uid(of item: ChecklistItem) -> String {
    "item-\(item.id)-\(uidSalt)@checklists"
  }

  /// The iCalendar file in English (see `render(catalogue:)`).
  package func render() -> [UInt8] { render(catalogue: Catalogue(madeFromEnglish: .english)) }

  /// The iCalendar file, CRLF line ends, folded, escaped. What every
  /// event repeats (its frame, `DTSTAMP`, the `UID`'s salt, its list's
  /// lines) is made once, so an event costs little more than copying its
  /// text: 1,000 events well within 2 ms (`bench-web`).
  ///
  /// - Parameter catalogue: the language of the words around a list's name
  ///   in each event's description ("Due in the list …"): the calendar
  ///   app's (`Accept-Language`). The lists' and items' texts are the
  ///   visitor's own.
  func render(catalogue: Catalogue) -> [UInt8] {
    let dueIn = catalogue.text(translatable("Due in the list {{name}}"))
    let tag = dueIn.range(of: "{{name}}")
    let before = tag.map { String(dueIn[..<$0.lowerBound]) } ?? dueIn
    let after = tag.map { String(dueIn[$0.upperBound...]) } ?? ""
    var writer = ICalendarWriter(capacity: 512 + events.count * 440)
    writer.line("BEGIN", "VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", Self.productID)
    writer.line("CALSCALE", "GREGORIAN")
    writer.textLine("X-WR-CALNAME", Self.calendarName)
    writer.textLine("NAME", Self.calendarName)
    writer.line("REFRESH-INTERVAL;VALUE=DURATION", Self.refreshInterval)
    writer.line("X-PUBLISHED-TTL", Self.refreshInterval)
    let head = Self.bytes { $0.line("BEGIN", "VEVENT") }
    let stamp = Self.bytes { $0.line("DTSTAMP", utc: lastModified) }
    let duration = Self.bytes { $0.line("DURATION", Self.eventDuration) }
    let alarm = Self.bytes {
      $0.line("BEGIN", "VALARM")
      $0.line("ACTION", "DISPLAY")
      $0.line("TRIGGER;RELATED=START", "PT0S")
    }
    let end = Self.bytes {
      $0.line("END", "VALARM")
      $0.line("END", "VEVENT")
    }
    // `UID:item-<id>-<salt>@checklists`: at most 71 octets, never folded.
    let uidPrefix = Array("UID:item-".utf8)
    let uidSuffix = Array("-\(uidSalt)@checklists\r\n".utf8)
    let lists = listNames.map { name in
      (
        summarySuffix: Self.bytes { $0.appendText(" (\(name))") },
        description: Self.bytes { $0.textLine("DESCRIPTION", before, name, after) }
      )
    }
    for event in events {
      writer.raw(head)
      writer.raw(uidPrefix)
      writer.appendNumber(event.item.id)
      writer.raw(uidSuffix)
      writer.raw(stamp)
      writer.line("DTSTART", utc: event.dueSeconds)
      // A repeating item's event repeats by its rule (from its next due date).
      if let recurrence = event.item.recurrence { writer.line("RRULE", recurrence.text) }
      writer.raw(duration)
      writer.textLine("SUMMARY", event.item.text, then: lists[event.list].summarySuffix)
      if event.item.notes.isEmpty {
        writer.raw(lists[event.list].description)
      } else {
        // The item's note after the list's name, as a calendar app shows it.
        writer.textLine(
          "DESCRIPTION", before, listNames[event.list], after, "\n\n", event.item.notes)
      }
      writer.raw(alarm)
      writer.textLine("DESCRIPTION", event.item.text)
      writer.raw(end)
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
