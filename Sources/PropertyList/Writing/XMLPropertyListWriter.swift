import Foundation
import Support

/// The one writer of XML property lists, straight into bytes: a file's parts (`appendKey`,
/// `appendString`, `appendDate`, …) for the store's files, whose keys and order their
/// types know, and `document(_:)` for a tree of values (the preferences).
///
/// Every change rewrites its file, so writing is on the path of every `POST`.
/// Foundation's `PropertyListEncoder` (XML) took about a quarter of the backend's CPU per
/// durable toggle of a 20-item list through nginx (~110 µs; a few µs here, `bench-store`),
/// 26 ms of a 5,000-item import's 100 ms (2 ms here, `bench-transfer`), and
/// `PropertyListSerialization` 31 ms for a 4,000-key preferences dictionary. The output is
/// byte for byte what that encoder writes (tabs, `&amp;` `&lt;` `&gt;` escaped, dates in
/// whole seconds, UTC), which `XMLPropertyListWriterTests` and the store's writer tests
/// check against it, as long as the caller writes a dictionary's keys in sorted order.
///
/// A carriage return is written as `&#13;`, so that XML's line-end normalisation does not
/// read it back as `\n`; the store's texts hold none (`TextInput` removes them).
///
/// It writes into an `XMLOutput`, which keeps the bytes or only counts them: how the store
/// measures a model without building its file.
package enum XMLPropertyListWriter {
  /// What comes before the top value.
  package static let prologue: StaticString = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// What comes after the top value.
  package static let epilogue: StaticString = "</plist>\n"

  // MARK: a tree of values

  /// The document of `root`. Its dictionaries' keys are written in no particular order
  /// unless `sortedKeys`: sorting 4,000 keys took a third of a preferences commit, and
  /// readers do not care.
  package static func document(_ root: PropertyListValue, sortedKeys: Bool = false) -> [UInt8] {
    var out = XMLOutput(reserving: 1_024)
    append(prologue, to: &out)
    write(root, depth: 0, sortedKeys: sortedKeys, to: &out)
    append(epilogue, to: &out)
    return out.bytes
  }

  /// `value` at `depth` tabs, with a line break after it.
  package static func write(
    _ value: PropertyListValue, depth: Int, sortedKeys: Bool = false, to out: inout XMLOutput
  ) {
    appendTabs(depth, to: &out)
    switch value {
    case .string(let text):
      append("<string>", to: &out)
      appendEscaped(text, to: &out)
      append("</string>\n", to: &out)
    case .integer(let number):
      append("<integer>", to: &out)
      appendDecimal(number, to: &out)
      append("</integer>\n", to: &out)
    case .real(let number):
      append("<real>", to: &out)
      append(realText(number), to: &out)
      append("</real>\n", to: &out)
    case .bool(let flag): append(flag ? "<true/>\n" : "<false/>\n", to: &out)
    case .date(let date):
      append("<date>", to: &out)
      appendDateText(date, to: &out)
      append("</date>\n", to: &out)
    case .data(let bytes):
      append("<data>", to: &out)
      append(bytes.base64EncodedString(), to: &out)
      append("</data>\n", to: &out)
    case .array(let values):
      guard !values.isEmpty else { return append("<array/>\n", to: &out) }
      append("<array>\n", to: &out)
      for element in values { write(element, depth: depth + 1, sortedKeys: sortedKeys, to: &out) }
      appendTabs(depth, to: &out)
      append("</array>\n", to: &out)
    case .dictionary(let values):
      guard !values.isEmpty else { return append("<dict/>\n", to: &out) }
      append("<dict>\n", to: &out)
      let keys = sortedKeys ? values.keys.sorted() : Array(values.keys)
      for key in keys {
        appendTabs(depth + 1, to: &out)
        append("<key>", to: &out)
        appendEscaped(key, to: &out)
        append("</key>\n", to: &out)
        write(values[key]!, depth: depth + 1, sortedKeys: sortedKeys, to: &out)
      }
      appendTabs(depth, to: &out)
      append("</dict>\n", to: &out)
    }
  }

  // MARK: a file's parts

  /// `<key>key</key>` at `depth` tabs; the key is written as it is (no escaping).
  @inlinable @inline(__always)
  package static func appendKey(_ key: StaticString, depth: Int, to out: inout XMLOutput) {
    appendTabs(depth, to: &out)
    append("<key>", to: &out)
    append(key, to: &out)
    append("</key>\n", to: &out)
  }

  /// A key and its `<integer>`.
  @inlinable
  package static func appendInteger(
    key: StaticString, _ value: Int, depth: Int, to out: inout XMLOutput
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<integer>", to: &out)
    appendDecimal(value, to: &out)
    append("</integer>\n", to: &out)
  }

  /// An `<integer>` of an array.
  @inlinable
  package static func appendInteger(_ value: Int, depth: Int, to out: inout XMLOutput) {
    appendTabs(depth, to: &out)
    append("<integer>", to: &out)
    appendDecimal(value, to: &out)
    append("</integer>\n", to: &out)
  }

  /// A key and its `<string>`; `escaped: false` for a text known to hold no markup
  /// character (an enumeration's raw value).
  @inlinable
  package static func appendString(
    key: StaticString, _ value: String, escaped: Bool = true, depth: Int, to out: inout XMLOutput
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<string>", to: &out)
    if escaped { appendEscaped(value, to: &out) } else { append(value, to: &out) }
    append("</string>\n", to: &out)
  }

  /// A key and its `<true/>` or `<false/>`.
  @inlinable
  package static func appendBool(
    key: StaticString, _ value: Bool, depth: Int, to out: inout XMLOutput
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append(value ? "<true/>\n" : "<false/>\n", to: &out)
  }

  /// A key and its `<date>`.
  @inlinable
  package static func appendDate(
    key: StaticString, _ date: Date, depth: Int, to out: inout XMLOutput
  ) {
    appendKey(key, depth: depth, to: &out)
    appendTabs(depth, to: &out)
    append("<date>", to: &out)
    appendDateText(date, to: &out)
    append("</date>\n", to: &out)
  }

  /// A key and its `<array>` of `elements`, each written by `write` one tab deeper; when
  /// `out` is full, it stops before the next element.
  @inlinable
  package static func appendArray<Element>(
    key: StaticString, _ elements: [Element], depth: Int, to out: inout XMLOutput,
    _ write: (Element, Int, inout XMLOutput) -> Void
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

  /// A `<dict>` at `depth` tabs, its entries written by `entries` one tab deeper.
  @inlinable
  package static func appendDictionary(
    depth: Int, to out: inout XMLOutput, _ entries: (Int, inout XMLOutput) -> Void
  ) {
    appendTabs(depth, to: &out)
    append("<dict>\n", to: &out)
    entries(depth + 1, &out)
    appendTabs(depth, to: &out)
    append("</dict>\n", to: &out)
  }

  @inlinable @inline(__always)
  package static func appendTabs(_ depth: Int, to out: inout XMLOutput) {
    guard depth <= tabs.utf8CodeUnitCount else {
      return out.append(repeating: UInt8(ascii: "\t"), count: depth)
    }
    out.append(contentsOf: UnsafeBufferPointer(start: tabs.utf8Start, count: depth))
  }

  /// The indentation of the deepest line the store writes, and more: copied as a slice,
  /// where `repeatElement` appended tab by tab (a third of the writer's own time for a
  /// 1,000-item list; callgrind, `bench-web --profile N check-all`).
  @usableFromInline static let tabs: StaticString = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

  @inlinable @inline(__always)
  package static func append(_ text: StaticString, to out: inout XMLOutput) {
    // The pointer read straight, not through `withUTF8Buffer`'s closure (a toggle of
    // a 20-item list: 266,800 → 264,000 instructions; callgrind).
    guard text.hasPointerRepresentation else {
      return text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
    out.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inlinable
  package static func append(_ text: String, to out: inout XMLOutput) {
    var text = text
    text.withUTF8 { out.append(contentsOf: $0) }
  }

  // MARK: scalars

  @inlinable
  static func appendDecimal(_ value: Int, to out: inout XMLOutput) {
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

  static func appendPadded(_ value: Int, width: Int, to out: inout XMLOutput) {
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

  /// XML's three markup characters, and a carriage return (see above).
  @inlinable
  static func appendEscaped(_ text: String, to out: inout XMLOutput) {
    var text = text
    text.withUTF8 { bytes in
      var start = 0
      for index in bytes.indices {
        let reference: StaticString
        switch bytes[index] {
        case UInt8(ascii: "&"): reference = "&amp;"
        case UInt8(ascii: "<"): reference = "&lt;"
        case UInt8(ascii: ">"): reference = "&gt;"
        case UInt8(ascii: "\r"): reference = "&#13;"
        default: continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        append(reference, to: &out)
        start = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
  }

  /// Spellings both CoreFoundation's and Python's readers accept.
  static func realText(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number > 0 ? "+infinity" : "-infinity" }
    return String(number)
  }

  /// The seconds since 1970 a plist date can spell: the years 1 to 9999.
  static let representableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

  /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, whole seconds, as Foundation writes a date.
  ///
  /// A file read back may hold any double as a date (NaN, infinity, 1e300 seconds: the
  /// fuzzer made one), which no integer can hold; such a date is clamped to the years
  /// 1 to 9999, and NaN written as 1970-01-01.
  static func dateText(_ date: Date) -> String {
    var out = XMLOutput(reserving: 20)
    appendDateText(date, to: &out)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  @usableFromInline static func appendDateText(_ date: Date, to out: inout XMLOutput) {
    let interval = date.timeIntervalSince1970
    let clamped =
      interval.isNaN
      ? 0
      : min(
        max(interval.rounded(.down), representableSeconds.lowerBound),
        representableSeconds.upperBound)
    let (days, second) = Int(clamped).quotientAndRemainder(dividingBy: 86_400)
    let (dayNumber, secondOfDay) = second < 0 ? (days - 1, second + 86_400) : (days, second)
    let (year, month, day) = CivilDate.date(daysSince1970: dayNumber)
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
    append("Z", to: &out)
  }
}
