import Support

/// Writes iCalendar content lines (RFC 5545 §3.1) straight into bytes:
/// each line ends in CRLF and is folded before it passes 75 octets (the
/// continuation starts with one space), never inside a UTF-8 sequence or
/// an escape; text values are escaped (§3.3.11).
///
/// A line is written whole first and folded afterwards only when it is
/// too long (rare: a long item text), so the usual line costs a few block
/// copies rather than a check per byte.
package struct ICalendarWriter {
  /// The longest a physical line may be, CRLF not counted.
  package static let maximumLineOctets = 75

  package private(set) var bytes: [UInt8] = []
  /// The line being folded (kept, so folding allocates once).
  private var scratch: [UInt8] = []

  package init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Bytes written as they are: whole lines, CRLF included, known to be
  /// short (a line made once and repeated, such as `BEGIN:VEVENT`).
  package mutating func raw(_ line: [UInt8]) {
    bytes.append(contentsOf: line)
  }

  /// A line read from a client, written back as it was read (folded anew).
  package mutating func append(_ line: ContentLine) {
    let start = bytes.count
    var text = line.text
    text.withUTF8 { bytes.append(contentsOf: $0) }
    endLine(startingAt: start)
  }

  /// `NAME:VALUE` with a value that needs no escaping (ASCII: a keyword,
  /// a date, a duration, an id).
  package mutating func line(_ name: StaticString, _ value: String) {
    let start = bytes.count
    append(name)
    bytes.append(UInt8(ascii: ":"))
    var value = value
    value.withUTF8 { bytes.append(contentsOf: $0) }
    endLine(startingAt: start)
  }

  /// `NAME:VALUE` for a date-time in UTC (`20250301T170000Z`).
  package mutating func line(_ name: StaticString, utc seconds: Int64) {
    let start = bytes.count
    append(name)
    bytes.append(UInt8(ascii: ":"))
    appendUTC(seconds)
    endLine(startingAt: start)
  }

  /// `NAME:` then each of `parts` as escaped text, one after another.
  package mutating func textLine(_ name: StaticString, _ parts: String...) {
    let start = bytes.count
    append(name)
    bytes.append(UInt8(ascii: ":"))
    for part in parts { appendText(part) }
    endLine(startingAt: start)
  }

  /// `NAME:`, escaped text, then bytes that need no escaping (a suffix).
  package mutating func textLine(_ name: StaticString, _ text: String, then suffix: [UInt8]) {
    let start = bytes.count
    append(name)
    bytes.append(UInt8(ascii: ":"))
    appendText(text)
    bytes.append(contentsOf: suffix)
    endLine(startingAt: start)
  }

  /// `20250301T170000Z`.
  package mutating func appendUTC(_ seconds: Int64) {
    let time = UTCTime(secondsSince1970: seconds)
    appendTwoDigits(time.year / 100)
    appendTwoDigits(time.year % 100)
    appendTwoDigits(time.month)
    appendTwoDigits(time.day)
    bytes.append(UInt8(ascii: "T"))
    appendTwoDigits(time.hour)
    appendTwoDigits(time.minute)
    appendTwoDigits(time.second)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// A non-negative number in decimal.
  package mutating func appendNumber(_ value: Int) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    appendNumber(value / 10)
    bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
  }

  /// `value` (0…99) as two digits, from a table: a date's fourteen digits
  /// cost no divisions but the fields' own.
  @inline(__always)
  private mutating func appendTwoDigits(_ value: Int) {
    let pair = Self.digitPairs[value]
    bytes.append(UInt8(truncatingIfNeeded: pair >> 8))
    bytes.append(UInt8(truncatingIfNeeded: pair))
  }

  private static let digitPairs: [UInt16] = (0..<100).map {
    UInt16(UInt8(ascii: "0") + UInt8($0 / 10)) << 8 | UInt16(UInt8(ascii: "0") + UInt8($0 % 10))
  }

  /// A TEXT value escaped: `\` `;` `,` get a backslash, a line break becomes
  /// `\n`, and other control characters (which TEXT may not hold) a space.
  /// Runs that need nothing are copied whole.
  package mutating func appendText(_ text: String) {
    var text = text
    let actions = Self.textActions
    text.withUTF8 { utf8 in
      var run = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        let action = actions[Int(byte)]
        if action == Self.copy { continue }
        flush(utf8, from: run, to: index)
        run = index + 1
        switch action {
        case Self.escape:
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(byte)
        case Self.lineBreak:
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(UInt8(ascii: "n"))
        case Self.space:
          bytes.append(UInt8(ascii: " "))
        default:
          break  // a carriage return: the line feed after it, if any, is the break
        }
      }
      flush(utf8, from: run, to: utf8.count)
    }
  }

  private static let copy: UInt8 = 0
  private static let escape: UInt8 = 1
  private static let lineBreak: UInt8 = 2
  private static let space: UInt8 = 3
  private static let drop: UInt8 = 4

  /// What TEXT does with each byte: most are copied.
  private static let textActions: [UInt8] = (0...255).map { byte -> UInt8 in
    switch byte {
    case 0x5C, 0x3B, 0x2C: escape  // \ ; ,
    case 0x0A: lineBreak
    case 0x0D: drop
    case 0x09: copy  // a tab is allowed
    case 0x00..<0x20, 0x7F: space
    default: copy
    }
  }

  @inline(__always)
  private mutating func flush(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
    if end > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end])) }
  }

  private mutating func append(_ name: StaticString) {
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Ends the line that started at `start` with CRLF, folded first when it
  /// is longer than 75 octets.
  private mutating func endLine(startingAt start: Int) {
    if bytes.count - start > Self.maximumLineOctets { fold(from: start) }
    bytes.append(UInt8(ascii: "\r"))
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Rewrites the line from `start` with a CRLF and a space where it
  /// passes 75 octets, each cut moved back to the start of its unit: a
  /// character's UTF-8 sequence, or an escape (in an escaped value a
  /// backslash starts one unless it ends one, and names hold none: an odd
  /// run of backslashes before the cut means the last one starts an escape).
  private mutating func fold(from start: Int) {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: bytes[start...])
    bytes.removeSubrange(start...)
    var index = 0
    var room = Self.maximumLineOctets
    while scratch.count - index > room {
      var cut = index + room
      while cut > index + 1 && scratch[cut] & 0xC0 == 0x80 { cut -= 1 }
      var backslashes = 0
      while cut - 1 - backslashes >= index && scratch[cut - 1 - backslashes] == UInt8(ascii: "\\") {
        backslashes += 1
      }
      if backslashes % 2 == 1 { cut -= 1 }
      bytes.append(contentsOf: scratch[index..<cut])
      bytes.append(UInt8(ascii: "\r"))
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(UInt8(ascii: " "))
      index = cut
      room = Self.maximumLineOctets - 1  // the space counts
    }
    bytes.append(contentsOf: scratch[index...])
  }
}
