import Support

/// Reads the content lines of a calendar resource (RFC 5545 §3.1): lines
/// end in CRLF (a bare LF is taken too), a line that starts with a space or
/// a tab continues the one before, and every line is
/// `name *(";" param) ":" value` in UTF-8.
///
/// Strict and bounded: the resource's size, its number of lines, each
/// line's length and parameters are capped (`ICalendarLimits`) before any
/// of it is kept, and anything outside the grammar (a control character, a
/// stray quote, a name with other characters than letters, digits and `-`)
/// is refused with the line it is on.
package enum ContentLineReader {
  package static func read(_ bytes: [UInt8]) throws(ICalendarError) -> [ContentLine] {
    guard bytes.count <= ICalendarLimits.maximumBytes else {
      throw .tooLarge(limit: ICalendarLimits.maximumBytes)
    }
    var lines: [ContentLine] = []
    var current: [UInt8] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      var physicalEnd = end
      if physicalEnd > start && bytes[physicalEnd - 1] == 0x0D { physicalEnd -= 1 }
      let isContinuation = physicalEnd > start && (bytes[start] == 0x20 || bytes[start] == 0x09)
      if isContinuation && !current.isEmpty {
        current.append(contentsOf: bytes[(start + 1)..<physicalEnd])
      } else if isContinuation && lines.isEmpty {
        // Translators: "it" is the line of the calendar data the sentence names.
        throw .malformedLine(line: 1, reason: FilledPhrase(translatable("it starts with a space")))
      } else {
        if !current.isEmpty { lines.append(try parse(current, number: lines.count + 1)) }
        current.removeAll(keepingCapacity: true)
        current.append(contentsOf: bytes[start..<physicalEnd])
      }
      if current.count > ICalendarLimits.maximumLineOctets {
        throw .lineTooLong(line: lines.count + 1, limit: ICalendarLimits.maximumLineOctets)
      }
      if lines.count >= ICalendarLimits.maximumLines {
        throw .tooManyLines(limit: ICalendarLimits.maximumLines)
      }
      start = end + 1
    }
    if !current.isEmpty { lines.append(try parse(current, number: lines.count + 1)) }
    guard lines.count <= ICalendarLimits.maximumLines else {
      throw .tooManyLines(limit: ICalendarLimits.maximumLines)
    }
    return lines
  }

  /// One unfolded line.
  static func parse(_ bytes: [UInt8], number: Int) throws(ICalendarError) -> ContentLine {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .malformedLine(line: number, reason: FilledPhrase(translatable("it is not UTF-8")))
    }
    var index = 0
    let name = try token(
      bytes, at: &index, line: number,
      what: FilledPhrase(translatable("a name of letters, digits and '-' expected")))
    var parameters: [ContentLine.Parameter] = []
    while index < bytes.count && bytes[index] == UInt8(ascii: ";") {
      index += 1
      guard parameters.count < ICalendarLimits.maximumParameters else {
        throw .malformedLine(
          line: number,
          reason: FilledPhrase(
            translatable("more than {{limit}} parameters"),
            ["limit": String(ICalendarLimits.maximumParameters)]))
      }
      let parameterName = try token(
        bytes, at: &index, line: number,
        what: FilledPhrase(
          translatable("a parameter name of letters, digits and '-' expected")))
      guard index < bytes.count && bytes[index] == UInt8(ascii: "=") else {
        throw .malformedLine(
          line: number,
          reason: FilledPhrase(
            translatable("'=' expected after {{name}}"), ["name": parameterName]))
      }
      index += 1
      var values = [try parameterValue(bytes, at: &index, line: number)]
      while index < bytes.count && bytes[index] == UInt8(ascii: ",") {
        index += 1
        values.append(try parameterValue(bytes, at: &index, line: number))
      }
      parameters.append(ContentLine.Parameter(name: parameterName, values: values))
    }
    guard index < bytes.count && bytes[index] == UInt8(ascii: ":") else {
      throw .malformedLine(
        line: number,
        reason: FilledPhrase(translatable("':' expected after {{name}}"), ["name": name]))
    }
    index += 1
    let valueStart = index
    while index < bytes.count {
      guard !isControl(bytes[index]) else {
        throw .malformedLine(
          line: number, reason: FilledPhrase(translatable("a control character in the value")))
      }
      index += 1
    }
    let value = String(decoding: bytes[valueStart...], as: UTF8.self)
    return ContentLine(name: name, parameters: parameters, value: value, text: text)
  }

  /// A name: one or more letters, digits and `-`, upper-cased.
  private static func token(
    _ bytes: [UInt8], at index: inout Int, line: Int, what: FilledPhrase
  ) throws(ICalendarError) -> String {
    let start = index
    while index < bytes.count && isNameByte(bytes[index]) { index += 1 }
    guard index > start else {
      throw .malformedLine(line: line, reason: what)
    }
    return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
  }

  /// A quoted string (any character but a control or `"`) or a run of
  /// characters other than controls, `"`, `;`, `:` and `,`.
  private static func parameterValue(
    _ bytes: [UInt8], at index: inout Int, line: Int
  ) throws(ICalendarError) -> String {
    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
      index += 1
      let start = index
      while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
        guard !isControl(bytes[index]) else {
          throw .malformedLine(
            line: line, reason: FilledPhrase(translatable("a control character in a parameter")))
        }
        index += 1
      }
      guard index < bytes.count else {
        throw .malformedLine(
          line: line, reason: FilledPhrase(translatable("a quoted parameter value is not closed")))
      }
      defer { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") {
        break
      }
      guard !isControl(byte) && byte != UInt8(ascii: "\"") else {
        throw .malformedLine(
          line: line,
          reason: FilledPhrase(translatable("a parameter value holds a quote or control")))
      }
      index += 1
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  /// A control character other than the tab, which values may hold.
  private static func isControl(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09) || byte == 0x7F
  }
}
