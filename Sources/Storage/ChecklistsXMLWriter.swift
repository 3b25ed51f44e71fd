import ChecklistsModel

/// Writes `Checklists.plist` as an XML property list, straight into bytes.
///
/// Every change rewrites the file, so its encoding is on the path of every
/// `POST`. Foundation's `PropertyListEncoder` (XML) took about a quarter of
/// the backend's CPU per durable toggle of a 20-item list through nginx
/// (`perf` under `scripts/bench`), ~110 µs; this writer takes a few µs
/// (`bench-store`). Its output is byte for byte what that encoder writes
/// (keys in sorted order, tabs, `&amp;` `&lt;` `&gt;` escaped), which
/// `ChecklistsXMLWriterTests` checks against it.
enum ChecklistsXMLWriter {
  static func document(_ model: DataModel) -> [UInt8] {
    var out: [UInt8] = []
    let items = model.lists.reduce(0) { $0 + $1.items.count }
    out.reserveCapacity(256 + model.lists.count * 160 + items * 112)
    append(Self.prologue, to: &out)
    append("<dict>\n\t<key>lists</key>\n", to: &out)
    if model.lists.isEmpty {
      append("\t<array/>\n", to: &out)
    } else {
      append("\t<array>\n", to: &out)
      for list in model.lists { write(list, into: &out) }
      append("\t</array>\n", to: &out)
    }
    appendInteger(key: "nextItemID", model.nextItemID, indent: "\t", to: &out)
    appendInteger(key: "nextListID", model.nextListID, indent: "\t", to: &out)
    appendInteger(key: "version", DataModel.currentVersion, indent: "\t", to: &out)
    append("</dict>\n</plist>\n", to: &out)
    return out
  }

  static let prologue = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  private static func write(_ list: Checklist, into out: inout [UInt8]) {
    append("\t\t<dict>\n\t\t\t<key>icon</key>\n\t\t\t<string>", to: &out)
    append(list.icon.rawValue, to: &out)
    append("</string>\n", to: &out)
    appendInteger(key: "id", list.id, indent: "\t\t\t", to: &out)
    append("\t\t\t<key>items</key>\n", to: &out)
    if list.items.isEmpty {
      append("\t\t\t<array/>\n", to: &out)
    } else {
      append("\t\t\t<array>\n", to: &out)
      for item in list.items {
        append("\t\t\t\t<dict>\n\t\t\t\t\t<key>checked</key>\n", to: &out)
        append(item.checked ? "\t\t\t\t\t<true/>\n" : "\t\t\t\t\t<false/>\n", to: &out)
        appendInteger(key: "id", item.id, indent: "\t\t\t\t\t", to: &out)
        append("\t\t\t\t\t<key>text</key>\n\t\t\t\t\t<string>", to: &out)
        appendEscaped(item.text, to: &out)
        append("</string>\n\t\t\t\t</dict>\n", to: &out)
      }
      append("\t\t\t</array>\n", to: &out)
    }
    append("\t\t\t<key>name</key>\n\t\t\t<string>", to: &out)
    appendEscaped(list.name, to: &out)
    append("</string>\n\t\t</dict>\n", to: &out)
  }

  private static func appendInteger(
    key: StaticString, _ value: Int, indent: StaticString, to out: inout [UInt8]
  ) {
    append(indent, to: &out)
    append("<key>", to: &out)
    append(key, to: &out)
    append("</key>\n", to: &out)
    append(indent, to: &out)
    append("<integer>", to: &out)
    appendDecimal(value, to: &out)
    append("</integer>\n", to: &out)
  }

  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  private static func append(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { out.append(contentsOf: $0) }
  }

  private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
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
  private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
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
