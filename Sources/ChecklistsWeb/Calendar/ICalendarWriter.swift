/// Writes iCalendar content lines (RFC 5545 §3.1) straight into bytes:
/// each line ends in CRLF and is folded before it passes 75 octets (the
/// continuation starts with one space), never inside a UTF-8 sequence or
/// an escape; text values are escaped (§3.3.11).
struct ICalendarWriter {
  /// The longest a physical line may be, CRLF not counted.
  static let maximumLineOctets = 75

  private(set) var bytes: [UInt8] = []
  /// Octets on the physical line being written.
  private var column = 0

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// `NAME:VALUE` with a value that needs no escaping (ASCII: a keyword,
  /// a date, a duration, an id).
  mutating func line(_ name: StaticString, _ value: some StringProtocol) {
    append(name)
    appendRaw(UInt8(ascii: ":"))
    for byte in value.utf8 { appendRaw(byte) }
    endLine()
  }

  /// `NAME:VALUE` for a date-time in UTC (`20250301T170000Z`).
  mutating func line(_ name: StaticString, utc seconds: Int64) {
    append(name)
    appendRaw(UInt8(ascii: ":"))
    let time = UTCTime(secondsSince1970: seconds)
    appendDigits(time.year, count: 4)
    appendDigits(time.month, count: 2)
    appendDigits(time.day, count: 2)
    appendRaw(UInt8(ascii: "T"))
    appendDigits(time.hour, count: 2)
    appendDigits(time.minute, count: 2)
    appendDigits(time.second, count: 2)
    appendRaw(UInt8(ascii: "Z"))
    endLine()
  }

  /// `NAME:` then each of `parts` as escaped text, one after another.
  mutating func textLine(_ name: StaticString, _ parts: String...) {
    append(name)
    appendRaw(UInt8(ascii: ":"))
    for part in parts { appendText(part) }
    endLine()
  }

  /// A TEXT value escaped: `\` `;` `,` get a backslash, a line break becomes
  /// `\n`, and other control characters (which TEXT may not hold) a space.
  private mutating func appendText(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
          appendUnit(UInt8(ascii: "\\"), byte)
          index += 1
        case UInt8(ascii: "\n"):
          appendUnit(UInt8(ascii: "\\"), UInt8(ascii: "n"))
          index += 1
        case UInt8(ascii: "\r"):
          index += 1
        case 0x00..<0x20 where byte != UInt8(ascii: "\t"), 0x7F:
          appendRaw(UInt8(ascii: " "))
          index += 1
        case 0x00..<0x80:
          appendRaw(byte)
          index += 1
        default:
          // A UTF-8 sequence stays on one line: its length from its lead byte.
          let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
          let end = min(index + length, utf8.count)
          foldIfNeeded(for: end - index)
          bytes.append(contentsOf: utf8[index..<end])
          column += end - index
          index = end
        }
      }
    }
  }

  /// Two octets kept on one line (an escape).
  private mutating func appendUnit(_ first: UInt8, _ second: UInt8) {
    foldIfNeeded(for: 2)
    bytes.append(first)
    bytes.append(second)
    column += 2
  }

  @inline(__always)
  private mutating func appendRaw(_ byte: UInt8) {
    foldIfNeeded(for: 1)
    bytes.append(byte)
    column += 1
  }

  private mutating func append(_ name: StaticString) {
    name.withUTF8Buffer { for byte in $0 { appendRaw(byte) } }
  }

  private mutating func appendDigits(_ value: Int, count: Int) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var value = value
    while divisor > 0 {
      appendRaw(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      value %= divisor
      divisor /= 10
    }
  }

  /// Starts a continuation line when `octets` more would pass the limit.
  @inline(__always)
  private mutating func foldIfNeeded(for octets: Int) {
    guard column + octets > Self.maximumLineOctets else { return }
    bytes.append(UInt8(ascii: "\r"))
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(UInt8(ascii: " "))
    column = 1
  }

  private mutating func endLine() {
    bytes.append(UInt8(ascii: "\r"))
    bytes.append(UInt8(ascii: "\n"))
    column = 0
  }
}
