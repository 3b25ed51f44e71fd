import ChecklistsModel
import Foundation
import PropertyList

/// Writes `Checklists.plist` with `XMLPropertyListWriter` (see there for why not
/// Foundation's encoder): the keys of each dictionary in sorted order, as
/// `PropertyListEncoder` writes them, so the bytes are its bytes, which
/// `ChecklistsXMLWriterTests` checks. An item is written by `write(item:)`, which
/// `PendingImportXMLWriter` shares.
///
/// It writes into an `XMLOutput`, which keeps the bytes or only counts
/// them: how `StoredSize` measures a model without building its file.
enum ChecklistsXMLWriter {
  typealias XML = XMLPropertyListWriter

  static func document(_ model: DataModel) -> [UInt8] {
    var out = XMLOutput(reserving: expectedSize(of: model))
    write(model, to: &out)
    return out.bytes
  }

  /// The document of `model` when it counts at most `limit` bytes as `StoredSize` counts
  /// them (every item as checked), else nil, having written no more than that: a model
  /// that fits is written in one pass, where counting it first and writing it then took
  /// two (Check all of 1,000 items in `bench-web`: 420 µs in one pass, 574 µs in two).
  static func document(_ model: DataModel, countingAtMost limit: Int) -> [UInt8]? {
    let unchecked = model.lists.reduce(0) { $0 + $1.uncheckedCount }
    var out = XMLOutput(
      keepingUpTo: limit > Int.max - unchecked ? Int.max : limit + unchecked,
      reserving: expectedSize(of: model))
    write(model, to: &out)
    return out.isFull ? nil : out.bytes
  }

  /// About what the document of `model` takes, to reserve it at once.
  private static func expectedSize(of model: DataModel) -> Int {
    let items = model.lists.reduce(0) { $0 + $1.items.count }
    return 256 + model.lists.count * 200 + items * 160
  }

  /// The document of `model` into `out`; when `out` is full, it stops at the next list,
  /// item or deletion.
  static func write(_ model: DataModel, to out: inout XMLOutput) {
    XML.append(XML.prologue, to: &out)
    XML.appendDictionary(depth: 0, to: &out) { depth, out in
      XML.appendArray(key: "deleted", model.deletions, depth: depth, to: &out) {
        deletion, depth, out in
        write(deletion, depth: depth, into: &out)
      }
      XML.appendArray(key: "lists", model.lists, depth: depth, to: &out) { list, depth, out in
        write(list, depth: depth, into: &out)
      }
      XML.appendInteger(key: "nextDeletionID", model.nextDeletionID, depth: depth, to: &out)
      XML.appendInteger(key: "nextItemID", model.nextItemID, depth: depth, to: &out)
      XML.appendInteger(key: "nextListID", model.nextListID, depth: depth, to: &out)
      if !model.templates.isEmpty {
        XML.appendArray(key: "templates", model.templates, depth: depth, to: &out) {
          template, depth, out in
          write(template, depth: depth, into: &out)
        }
      }
      XML.appendInteger(key: "version", model.formatVersion, depth: depth, to: &out)
    }
    XML.append(XML.epilogue, to: &out)
  }

  // Every dictionary's keys in sorted order, as Foundation writes them.

  static func write(_ list: Checklist, depth: Int, into out: inout XMLOutput) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      if let allCheckedAt = list.reset?.allCheckedAt {
        XML.appendDate(key: "allCheckedAt", allCheckedAt, depth: depth, to: &out)
      }
      if let calendarName = list.calendarName {
        XML.appendString(key: "calendarName", calendarName, depth: depth, to: &out)
      }
      if !list.changes.isEmpty {
        XML.appendKey("changes", depth: depth, to: &out)
        write(list.changes, depth: depth, into: &out)
      }
      XML.appendString(key: "icon", list.icon.rawValue, escaped: false, depth: depth, to: &out)
      XML.appendInteger(key: "id", list.id, depth: depth, to: &out)
      XML.appendArray(key: "items", list.items, depth: depth, to: &out) { item, depth, out in
        write(item, position: nil, depth: depth, into: &out)
      }
      if let lastReset = list.reset?.lastReset {
        XML.appendDate(key: "lastReset", lastReset, depth: depth, to: &out)
      }
      XML.appendString(key: "name", list.name, depth: depth, to: &out)
      if !list.properties.isEmpty {
        XML.appendArray(key: "properties", list.properties, depth: depth, to: &out) {
          property, depth, out in
          XML.appendDictionary(depth: depth, to: &out) { depth, out in
            XML.appendString(key: "name", property.name, depth: depth, to: &out)
            XML.appendString(key: "namespace", property.namespace, depth: depth, to: &out)
            XML.appendString(key: "value", property.value, depth: depth, to: &out)
          }
        }
      }
      if let reset = list.reset {
        XML.appendKey("reset", depth: depth, to: &out)
        write(ResetRuleCoding(reset.rule), depth: depth, into: &out)
      }
      XML.appendString(key: "sort", list.sort.rawValue, escaped: false, depth: depth, to: &out)
    }
  }

  /// A list's reset rule, its keys in sorted order as `ResetRuleCoding`
  /// encodes them.
  private static func write(_ rule: ResetRuleCoding, depth: Int, into out: inout XMLOutput) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      if let day = rule.day { XML.appendInteger(key: "day", day, depth: depth, to: &out) }
      if let hour = rule.hour { XML.appendInteger(key: "hour", hour, depth: depth, to: &out) }
      if let hours = rule.hours { XML.appendInteger(key: "hours", hours, depth: depth, to: &out) }
      XML.appendString(key: "kind", rule.kind, depth: depth, to: &out)
      if let minute = rule.minute {
        XML.appendInteger(key: "minute", minute, depth: depth, to: &out)
      }
      if let weekdays = rule.weekdays {
        XML.appendArray(key: "weekdays", weekdays, depth: depth, to: &out) { day, depth, out in
          XML.appendInteger(day, depth: depth, to: &out)
        }
      }
      if let zone = rule.zone { XML.appendString(key: "zone", zone, depth: depth, to: &out) }
    }
  }

  /// A list's change log (written only when it has a revision, as
  /// `Checklist` encodes it).
  private static func write(_ log: ChangeLog, depth: Int, into out: inout XMLOutput) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      XML.appendArray(key: "changes", log.changes, depth: depth, to: &out) { change, depth, out in
        XML.appendDictionary(depth: depth, to: &out) { depth, out in
          XML.appendString(key: "name", change.name, depth: depth, to: &out)
          XML.appendInteger(key: "revision", change.revision, depth: depth, to: &out)
        }
      }
      XML.appendInteger(key: "revision", log.revision, depth: depth, to: &out)
      XML.appendInteger(key: "since", log.since, depth: depth, to: &out)
    }
  }

  /// An item; with `position`, a removed item of a deletion.
  private static func write(
    _ item: ChecklistItem, position: Int?, depth: Int, into out: inout XMLOutput
  ) {
    write(
      item: item.text, checked: item.checked, dueDate: item.dueDate, id: item.id,
      position: position, shouldRemind: item.shouldRemind, notes: item.notes,
      calendar: item.calendar, recurrence: item.recurrence?.text, lastDone: item.lastDone,
      depth: depth, into: &out)
  }

  /// An item's dictionary, of a list or a deletion (with `id`) or of a pending import
  /// (without): `shouldRemind` only when true, `notes` only when not empty,
  /// `recurrence` and `lastDone` only when the item repeats, and
  /// `calendar` only when there, as `ChecklistItem` encodes them.
  static func write(
    item text: String, checked: Bool, dueDate: Date?, id: Int?, position: Int? = nil,
    shouldRemind: Bool, notes: String = "", calendar: CalendarData? = nil,
    recurrence: String? = nil, lastDone: Date? = nil, depth: Int, into out: inout XMLOutput
  ) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      if let calendar {
        XML.appendKey("calendar", depth: depth, to: &out)
        XML.appendDictionary(depth: depth, to: &out) { depth, out in
          XML.appendString(key: "kept", calendar.kept, depth: depth, to: &out)
          XML.appendString(key: "resource", calendar.resource, depth: depth, to: &out)
          XML.appendString(key: "uid", calendar.uid, depth: depth, to: &out)
        }
      }
      XML.appendBool(key: "checked", checked, depth: depth, to: &out)
      if let dueDate { XML.appendDate(key: "dueDate", dueDate, depth: depth, to: &out) }
      if let id { XML.appendInteger(key: "id", id, depth: depth, to: &out) }
      if let lastDone { XML.appendDate(key: "lastDone", lastDone, depth: depth, to: &out) }
      if !notes.isEmpty { XML.appendString(key: "notes", notes, depth: depth, to: &out) }
      if let position { XML.appendInteger(key: "position", position, depth: depth, to: &out) }
      if let recurrence {
        XML.appendString(key: "recurrence", recurrence, depth: depth, to: &out)
      }
      if shouldRemind { XML.appendBool(key: "shouldRemind", true, depth: depth, to: &out) }
      XML.appendString(key: "text", text, depth: depth, to: &out)
    }
  }

  /// A deletion, as an entry of the document's `deleted` array (`depth` 2).
  static func write(_ deletion: Deletion, depth: Int, into out: inout XMLOutput) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      XML.appendDate(key: "deletedAt", deletion.deletedAt, depth: depth, to: &out)
      XML.appendInteger(key: "id", deletion.id, depth: depth, to: &out)
      if let list = deletion.list {
        XML.appendKey("list", depth: depth, to: &out)
        write(list, depth: depth, into: &out)
      } else {
        XML.appendArray(key: "items", deletion.items, depth: depth, to: &out) {
          removed, depth, out in
          write(removed.item, position: removed.position, depth: depth, into: &out)
        }
      }
      XML.appendInteger(key: "listID", deletion.listID, depth: depth, to: &out)
      XML.appendString(key: "listName", deletion.listName, depth: depth, to: &out)
      switch deletion.deleter {
      case .owner: break
      case .editLink: XML.appendBool(key: "throughLink", true, depth: depth, to: &out)
      case .app: XML.appendBool(key: "throughApp", true, depth: depth, to: &out)
      }
    }
  }
}
