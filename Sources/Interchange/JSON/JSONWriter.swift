/// Writes JSON text straight into bytes: the export's strings escaped so
/// that any text stays one valid JSON string (RFC 8259 §7), and so that the
/// file is also safe to paste into JavaScript (U+2028 and U+2029 escaped).
///
/// Runs that need no escape (nearly every text) are copied whole.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  /// Bytes that need no escaping (punctuation, indentation, known keys).
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func raw(_ other: [UInt8]) {
    bytes.append(contentsOf: other)
  }

  /// `value` in decimal.
  mutating func number(_ value: Int) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      // The magnitude of Int.min does not fit an Int: write it unsigned.
      unsignedNumber(value.magnitude)
    } else {
      unsignedNumber(UInt(value))
    }
  }

  private mutating func unsignedNumber(_ value: UInt) {
    if value >= 10 { unsignedNumber(value / 10) }
    bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
  }

  mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  /// `"2025-03-01T17:00:00Z"`: whole seconds, clamped to 1970–9999.
  mutating func date(_ secondsSince1970: Double) {
    bytes.append(UInt8(ascii: "\""))
    RFC3339.append(RFC3339.clampedSeconds(secondsSince1970), to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// `text` as a JSON string in double quotes: `"` and `\` with a
  /// backslash, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or
  /// `\u00XX`, U+2028 and U+2029 as `\u2028` and `\u2029`; every other
  /// character as its UTF-8 bytes.
  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var run = 0
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
          && byte != 0xE2
        {
          index += 1
          continue
        }
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 is copied.
        if byte == 0xE2 {
          guard index + 2 < utf8.count, utf8[index + 1] == 0x80,
            utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
          else {
            index += 1
            continue
          }
        }
        if index > run {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
        }
        if byte == 0xE2 {
          raw(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
          index += 3
        } else {
          escape(byte)
          index += 1
        }
        run = index
      }
      if utf8.count > run {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): raw("\\\"")
    case UInt8(ascii: "\\"): raw("\\\\")
    case 0x0A: raw("\\n")
    case 0x0D: raw("\\r")
    case 0x09: raw("\\t")
    case 0x08: raw("\\b")
    case 0x0C: raw("\\f")
    default:
      raw("\\u00")
      let digits: StaticString = "0123456789abcdef"
      digits.withUTF8Buffer { hex in
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      }
    }
  }
}
