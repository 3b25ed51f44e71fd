import ChecklistsModel
import Foundation

/// The JSON export: every list with every field of it and of its items,
/// in the format `docs/export-format.md` documents (version 1, checked by
/// `docs/checklists-export.schema.json`). Recently deleted is not in it.
///
/// Written straight into bytes, with the members in a fixed order and one
/// item a line, so the same lists at the same moment are the same file.
/// Foundation's `JSONEncoder` misses the bar of 5,000 items in 20 ms: the
/// same document (sorted keys, ISO 8601 dates) costs 17-19 ms of CPU compact
/// and 19-25 ms indented, 34-41 ms of wall time on a shared 2-core machine
/// under load; this writer costs 1.4-1.8 ms of CPU, 2.5-2.9 ms of wall time
/// (`bench-web --interchange-only`, release).
package enum JSONExport {
  /// The value of the document's `format` member, which tells an export of
  /// this app from any other JSON file.
  package static let format = "checklists"
  /// The version of the format this server writes, and the newest it reads.
  package static let version = 1

  /// The export of `model`'s lists, in display order, each with its items
  /// in the visitor's own order.
  ///
  /// - Parameter exportedAt: written as `exportedAt`, in whole seconds (UTC).
  package static func document(_ model: DataModel, exportedAt: Date) -> [UInt8] {
    let itemCount = model.lists.reduce(0) { $0 + $1.items.count }
    var writer = JSONWriter(capacity: 256 + model.lists.count * 160 + itemCount * 120)
    writer.raw("{\n  \"format\": ")
    writer.string(format)
    writer.raw(",\n  \"version\": ")
    writer.number(version)
    writer.raw(",\n  \"exportedAt\": ")
    writer.date(exportedAt.timeIntervalSince1970)
    writer.raw(",\n  \"lists\": [")
    // The templates after the lists, each marked `"template": true`.
    let all = model.lists.map { ($0, false) } + model.templates.map { ($0, true) }
    for (index, (list, isTemplate)) in all.enumerated() {
      writer.raw(index == 0 ? "\n    {\n      \"id\": " : ",\n    {\n      \"id\": ")
      writer.number(list.id)
      writer.raw(",\n      \"name\": ")
      writer.string(list.name)
      writer.raw(",\n      \"icon\": ")
      writer.string(list.icon.rawValue)
      writer.raw(",\n      \"sort\": ")
      writer.string(list.sort.rawValue)
      if isTemplate { writer.raw(",\n      \"template\": true") }
      if let reset = list.reset { write(ResetRuleCoding(reset.rule), to: &writer) }
      if list.items.isEmpty {
        writer.raw(",\n      \"items\": []\n    }")
        continue
      }
      writer.raw(",\n      \"items\": [")
      for (itemIndex, item) in list.items.enumerated() {
        writer.raw(itemIndex == 0 ? "\n        {\"id\": " : ",\n        {\"id\": ")
        writer.number(item.id)
        writer.raw(", \"text\": ")
        writer.string(item.text)
        writer.raw(", \"checked\": ")
        writer.bool(item.checked)
        if let dueDate = item.dueDate {
          writer.raw(", \"dueDate\": ")
          writer.date(dueDate.timeIntervalSince1970)
        }
        writer.raw(", \"shouldRemind\": ")
        writer.bool(item.shouldRemind)
        if !item.notes.isEmpty {
          writer.raw(", \"notes\": ")
          writer.string(item.notes)
        }
        if let recurrence = item.recurrence {
          writer.raw(", \"recurrence\": ")
          writer.string(recurrence.text)
        }
        writer.raw("}")
      }
      writer.raw("\n      ]\n    }")
    }
    writer.raw(all.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
    return writer.bytes
  }

  /// A list's `"reset"` member: the rule as `ResetRuleCoding` names its
  /// parts (its last reset is not exported: an imported rule starts afresh).
  private static func write(_ rule: ResetRuleCoding, to writer: inout JSONWriter) {
    writer.raw(",\n      \"reset\": {\"kind\": ")
    writer.string(rule.kind)
    func member(_ name: StaticString, _ value: Int?) {
      guard let value else { return }
      writer.raw(", \"")
      writer.raw(name)
      writer.raw("\": ")
      writer.number(value)
    }
    member("hours", rule.hours)
    member("day", rule.day)
    if let weekdays = rule.weekdays {
      writer.raw(", \"weekdays\": [")
      for (index, day) in weekdays.enumerated() {
        if index > 0 { writer.raw(", ") }
        writer.number(day)
      }
      writer.raw("]")
    }
    member("hour", rule.hour)
    member("minute", rule.minute)
    if let zone = rule.zone {
      writer.raw(", \"zone\": ")
      writer.string(zone)
    }
    writer.raw("}")
  }
}
