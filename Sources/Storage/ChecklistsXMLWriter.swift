import ChecklistsModel
import Foundation
import Support

/// Writes `Checklists.plist` as an XML property list, straight into bytes.
///
/// Every change rewrites the file, so its encoding is on the path of every
/// `POST`. Foundation's `PropertyListEncoder` (XML) took about a quarter of
/// the backend's CPU per durable toggle of a 20-item list through nginx
/// (`perf` under `scripts/bench`), ~110 µs; this writer takes a few µs
/// (`bench-store`). Its output is byte for byte what that encoder writes
/// (keys in sorted order, tabs, `&amp;` `&lt;` `&gt;` escaped), which
/// `ChecklistsXMLWriterTests` checks against it.
///
/// It writes into any `XMLOutput`: an array of bytes, or a `ByteCount` that
/// only counts them, which is how `StoredSize` measures a model without
/// building its file.
enum ChecklistsXMLWriter {
  static func document(_ model: DataModel) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(expectedSize(of: model))
    write(model, to: &out)
    return out
  }

  /// The document of `model` when it counts at most `limit` bytes as `StoredSize` counts
  /// them (every item as checked), else nil, having written no more than that: a model
  /// that fits is written in one pass, where counting it first and writing it then took
  /// two (Check all of 1,000 items in `bench-web`: 420 µs in one pass, 574 µs in two).
  static func document(_ model: DataModel, countingAtMost limit: Int) -> [UInt8]? {
    let unchecked = model.lists.reduce(0) { $0 + $1.uncheckedCount }
    var out = BoundedBytes(
      limit: limit > Int.max - unchecked ? Int.max : limit + unchecked,
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
  static func write<Out: XMLOutput>(_ model: DataModel, to out: inout Out) {
    append(Self.prologue, to: &out)
    append("<dict>\n", to: &out)
    appendArray(key: "deleted", model.deletions, depth: 1, to: &out) { deletion, depth, out in
      write(deletion, depth: depth, into: &out)
    }
    appendArray(key: "lists", model.lists, depth: 1, to: &out) { list, depth, out in
      write(list, depth: depth, into: &out)
    }
    appendInteger(key: "nextDeletionID", model.nextDeletionID, depth: 1, to: &out)
    appendInteger(key: "nextItemID", model.nextItemID, depth: 1, to: &out)
    appendInteger(key: "nextListID", model.nextListID, depth: 1, to: &out)
    appendInteger(key: "version", DataModel.currentVersion, depth: 1, to: &out)
    append("</dict>\n</plist>\n", to: &out)
  }

  static let prologue = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  // Every dictionary's keys in sorted order, as Foundation writes them.

  static func write<Out: XMLOutput>(_ list: Checklist, depth: Int, into out: inout Out) {
    appendTabs(depth, to: &out)
    append("<dict>\n", to: &out)
    appendString(key: "icon", list.icon.rawValue, escaped: false, depth: depth + 1, to: &out)
    appendInteger(key: "id", list.id, depth: depth + 1, to: &out)
    appendArray(key: "items", list.items, depth: depth + 1, to: &out) { item, depth, out in
      write(item, position: nil, depth: depth, into: &out)
    }
    appendString(key: "name", list.name, depth: depth + 1, to: &out)
    appendString(key: "sort", list.sort.rawValue, escaped: false, depth: depth + 1, to: &out)
    appendTabs(depth, to: &out)
    append("</dict>\n", to: &out)
  }

  /// An item; with `position`, a removed item of a deletion.
  private static func write<Out: XMLOutput>(
    _ item: ChecklistItem, position: Int?, depth: Int, into out: inout Out
  ) {
    appendTabs(depth, to: &out)
    append("<dict>\n", to: &out)
    appendKey("checked", depth: depth + 1, to: &out)
    appendTabs(depth + 1, to: &out)
    append(item.checked ? "<true/>\n" : "<false/>\n", to: &out)
    if let dueDate = item.dueDate {
      appendDate(key: "dueDate", dueDate, depth: depth + 1, to: &out)
    }
    appendInteger(key: "id", item.id, depth: depth + 1, to: &out)
    if let position { appendInteger(key: "position", position, depth: depth + 1, to: &out) }
    if item.shouldRemind {
      appendKey("shouldRemind", depth: depth + 1, to: &out)
      appendTabs(depth + 1, to: &out)
      append("<true/>\n", to: &out)
    }
    appendString(key: "text", item.text, depth: depth + 1, to: &out)
    appendTabs(depth, to: &out)
    append("</dict>\n", to: &out)
  }

  /// A deletion, as an entry of the document's `deleted` array (`depth` 2).
  static func write<Out: XMLOutput>(_ deletion: Deletion, depth: Int, into out: inout Out) {
    appendTabs(depth, to: &out)
    append("<dict>\n", to: &out)
    appendDate(key: "deletedAt", deletion.deletedAt, depth: depth + 1, to: &out)
    appendInteger(key: "id", deletion.id, depth: depth + 1, to: &out)
    if let list = deletion.list {
      appendKey("list", depth: depth + 1, to: &out)
      write(list, depth: depth + 1, into: &out)
    } else {
      appendArray(key: "items", deletion.items, depth: depth + 1, to: &out) { removed, depth, out in
        write(removed.item, position: removed.position, depth: depth, into: &out)
      }
    }
    appendInteger(key: "listID", deletion.listID, depth: depth + 1, to: &out)
    appendString(key: "listName", deletion.listName, depth: depth + 1, to: &out)
    if deletion.throughLink {
      appendKey("throughLink", depth: depth + 1, to: &out)
      appendTabs(depth + 1, to: &out)
      append("<true/>\n", to: &out)
    }
    appendTabs(depth, to: &out)
    append("</dict>\n", to: &out)
  }

  static func appendArray<Element, Out: XMLOutput>(
    key: StaticString, _ elements: [Element], depth: Int, to out: inout Out,
    _ write: (Element, Int, inout Out) -> Void
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    if elements.isEmpty {
      append("<array/>\n", to: &out)
      return
    }
    append("<array>\n", to: &out)
    for element in elements {
      if out.isFull { return }
      write(element, depth + 1, &out)
    }
    appendTabs(depth, to: &out)
    append("</array>\n", to: &out)
  }

  static func appendKey<Out: XMLOutput>(_ key: StaticString, depth: Int, to out: inout Out) {
    appendTabs(depth, to: &out)
    append("<key>", to: &out)
    append(key, to: &out)
    append("</key>\n", to: &out)
  }

  static func appendTabs<Out: XMLOutput>(_ depth: Int, to out: inout Out) {
    out.append(repeating: UInt8(ascii: "\t"), count: depth)
  }

  static func appendInteger<Out: XMLOutput>(
    key: StaticString, _ value: Int, depth: Int, to out: inout Out
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<integer>", to: &out)
    appendDecimal(value, to: &out)
    append("</integer>\n", to: &out)
  }

  static func appendString<Out: XMLOutput>(
    key: StaticString, _ value: String, escaped: Bool = true, depth: Int, to out: inout Out
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<string>", to: &out)
    if escaped { appendEscaped(value, to: &out) } else { append(value, to: &out) }
    append("</string>\n", to: &out)
  }

  /// A date as `yyyy-MM-ddTHH:mm:ssZ` in UTC, whole seconds, as Foundation writes it.
  static func appendDate<Out: XMLOutput>(
    key: StaticString, _ date: Date, depth: Int, to out: inout Out
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<date>", to: &out)
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let (year, month, day) = CivilDate.date(daysSince1970: days)
    appendPadded(year, width: 4, to: &out)
    out.append(UInt8(ascii: "-"))
    appendPadded(month, width: 2, to: &out)
    out.append(UInt8(ascii: "-"))
    appendPadded(day, width: 2, to: &out)
    out.append(UInt8(ascii: "T"))
    appendPadded(secondOfDay / 3600, width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    appendPadded(secondOfDay / 60 % 60, width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    appendPadded(secondOfDay % 60, width: 2, to: &out)
    append("Z</date>\n", to: &out)
  }

  static func appendPadded<Out: XMLOutput>(_ value: Int, width: Int, to out: inout Out) {
    var digits = 1
    var rest = value / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    if digits < width {
      out.append(repeating: UInt8(ascii: "0"), count: width - digits)
    }
    appendDecimal(value, to: &out)
  }

  static func append<Out: XMLOutput>(_ text: StaticString, to out: inout Out) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  static func append<Out: XMLOutput>(_ text: String, to out: inout Out) {
    var text = text
    text.withUTF8 { out.append(contentsOf: $0) }
  }

  static func appendDecimal<Out: XMLOutput>(_ value: Int, to out: inout Out) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var first = digits.count
      repeat {
        first -= 1
        digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
    }
  }

  /// XML's three markup characters. Names and texts hold no control
  /// characters (`TextInput` removes them), so nothing else needs a reference.
  static func appendEscaped<Out: XMLOutput>(_ text: String, to out: inout Out) {
    var text = text
    text.withUTF8 { bytes in
      var start = 0
      for index in bytes.indices {
        let reference: StaticString
        switch bytes[index] {
        case UInt8(ascii: "&"): reference = "&amp;"
        case UInt8(ascii: "<"): reference = "&lt;"
        case UInt8(ascii: ">"): reference = "&gt;"
        default: continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        append(reference, to: &out)
        start = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
  }
}
