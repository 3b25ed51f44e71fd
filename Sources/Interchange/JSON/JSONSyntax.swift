/// Checks that bytes (already known to be UTF-8) hold exactly one JSON text
/// (RFC 8259), and says what is wrong and where when they do not: a
/// trailing comma, a missing quote, a control character in a string, an
/// escape of half a character, anything after the end.
///
/// One loop over the bytes with an explicit stack of open containers, never
/// a recursive call, and at most `maximumDepth` of them open at once, so a
/// file of a million `[` fails quickly rather than exhausting the stack.
enum JSONSyntax {
  /// Objects and arrays open at once: an export needs 5 (the document, its
  /// lists, a list, its items, an item).
  static let maximumDepth = 64

  /// What is wrong, and the offset of the byte where it was found.
  struct Failure: Error, Equatable {
    var offset: Int
    var problem: ImportPhrase

    init(offset: Int, problem: ImportPhrase) {
      self.offset = offset
      self.problem = problem
    }

    /// A problem without values.
    init(offset: Int, problem: String) {
      self.init(offset: offset, problem: ImportPhrase(problem))
    }
  }

  /// - Throws: the first problem, at its offset.
  static func check(_ bytes: [UInt8], from start: Int) throws(Failure) {
    var index = start
    var open: [UInt8] = []  // `{` or `[`, innermost last
    var afterComma = false
    skipWhitespace(bytes, &index)
    while true {
      // A value is expected at `index`.
      guard index < bytes.count else {
        throw Failure(
          offset: index, problem: translatable("the file ends where a value was expected"))
      }
      switch bytes[index] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard open.count < maximumDepth else {
          throw Failure(
            offset: index,
            problem: ImportPhrase(
              translatable("objects and arrays are nested more than {{limit}} deep"),
              ["limit": .number(maximumDepth)]))
        }
        let opening = bytes[index]
        open.append(opening)
        index += 1
        skipWhitespace(bytes, &index)
        let closing = opening == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if index < bytes.count, bytes[index] == closing {
          open.removeLast()
          index += 1
        } else {
          if opening == UInt8(ascii: "{") { try member(bytes, &index, afterComma: false) }
          afterComma = false
          continue
        }
      case UInt8(ascii: "\""):
        try string(bytes, &index)
      case UInt8(ascii: "t"): try literal("true", bytes, &index)
      case UInt8(ascii: "f"): try literal("false", bytes, &index)
      case UInt8(ascii: "n"): try literal("null", bytes, &index)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        try number(bytes, &index)
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        throw Failure(
          offset: index,
          problem: afterComma
            ? ImportPhrase(translatable("expected a value after the comma"))
            : notA(translatable("expected a value, not {{found}}"), bytes, index))
      default:
        throw Failure(
          offset: index,
          problem: notA(translatable("expected a value, not {{found}}"), bytes, index))
      }
      // After a value: close what it ends, or go on to the next one.
      while true {
        skipWhitespace(bytes, &index)
        guard let container = open.last else {
          guard index == bytes.count else {
            throw Failure(
              offset: index,
              problem: notA(
                translatable("the file goes on after its end ({{found}})"), bytes, index))
          }
          return
        }
        let isObject = container == UInt8(ascii: "{")
        let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard index < bytes.count else {
          throw Failure(
            offset: index,
            problem: isObject
              ? translatable("the file ends inside an object (a “}” is missing)")
              : translatable("the file ends inside an array (a “]” is missing)"))
        }
        if bytes[index] == closing {
          open.removeLast()
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: ",") else {
          throw Failure(
            offset: index,
            problem: notA(
              isObject
                ? translatable("expected “,” or “}”, not {{found}}")
                : translatable("expected “,” or “]”, not {{found}}"), bytes, index))
        }
        index += 1
        skipWhitespace(bytes, &index)
        if isObject { try member(bytes, &index, afterComma: true) }
        afterComma = !isObject
        break
      }
    }
  }

  /// A member's name and its colon; `index` is left at its value.
  private static func member(_ bytes: [UInt8], _ index: inout Int, afterComma: Bool)
    throws(Failure)
  {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      if index == bytes.count {
        throw Failure(
          offset: index, problem: translatable("the file ends inside an object (a “}” is missing)"))
      }
      if afterComma, bytes[index] == UInt8(ascii: "}") {
        throw Failure(
          offset: index, problem: translatable("expected a name in double quotes after the comma"))
      }
      throw Failure(
        offset: index,
        problem: notA(translatable("expected a name in double quotes, not {{found}}"), bytes, index)
      )
    }
    try string(bytes, &index)
    skipWhitespace(bytes, &index)
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw Failure(
        offset: index,
        problem: notA(translatable("expected “:” after a name, not {{found}}"), bytes, index))
    }
    index += 1
    skipWhitespace(bytes, &index)
  }

  /// A string from its opening quote to past its closing one.
  private static func string(_ bytes: [UInt8], _ index: inout Int) throws(Failure) {
    let start = index
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"):
        try escape(bytes, &index)
      case 0x00..<0x20:
        throw Failure(
          offset: index,
          problem: ImportPhrase(
            translatable(
              "a text in quotes holds a control character ({{character}}), which must be written as an escape such as \\n"
            ), ["character": .text("U+" + hex(UInt32(byte), digits: 4))]))
      default:
        index += 1
      }
    }
    throw Failure(
      offset: start, problem: translatable("the text in quotes that starts here never ends"))
  }

  /// An escape from its backslash: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
  /// `\r`, `\t`, or `\uXXXX`, a surrogate only as a whole pair.
  private static func escape(_ bytes: [UInt8], _ index: inout Int) throws(Failure) {
    let start = index
    guard index + 1 < bytes.count else {
      throw Failure(offset: start, problem: translatable("the file ends inside an escape"))
    }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      index += 2
    case UInt8(ascii: "u"):
      guard let unit = hexUnit(bytes, at: index + 2) else {
        throw Failure(
          offset: start, problem: translatable("“\\u” must be followed by four hexadecimal digits"))
      }
      index += 6
      if (0xDC00...0xDFFF).contains(unit) {
        throw Failure(
          offset: start,
          problem: ImportPhrase(
            translatable(
              "the escape {{escape}} is the second half of a character without its first"),
            ["escape": .text("\\u" + hex(unit, digits: 4))]))
      }
      if (0xD800...0xDBFF).contains(unit) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u"), let low = hexUnit(bytes, at: index + 2),
          (0xDC00...0xDFFF).contains(low)
        else {
          throw Failure(
            offset: start,
            problem: ImportPhrase(
              translatable(
                "the escape {{escape}} is the first half of a character without its second"),
              ["escape": .text("\\u" + hex(unit, digits: 4))]))
        }
        index += 6
      }
    default:
      throw Failure(
        offset: start,
        problem: ImportPhrase(
          translatable("“{{escape}}” is not an escape JSON knows"),
          ["escape": .text("\\" + visible(bytes, at: index + 1))]))
    }
  }

  /// The value of four hexadecimal digits at `offset`, or nil.
  static func hexUnit(_ bytes: [UInt8], at offset: Int) -> UInt32? {
    guard offset >= 0, offset + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[offset..<offset + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  private static func number(_ bytes: [UInt8], _ index: inout Int) throws(Failure) {
    func digits(_ index: inout Int) throws(Failure) {
      let start = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      guard index > start else {
        throw Failure(
          offset: index,
          problem: notA(translatable("expected a digit in a number, not {{found}}"), bytes, index))
      }
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
        throw Failure(
          offset: index - 1,
          problem: translatable("a number may not start with 0 (except 0 itself)"))
      }
    } else {
      try digits(&index)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      try digits(&index)
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      try digits(&index)
    }
  }

  private static func literal(_ word: StaticString, _ bytes: [UInt8], _ index: inout Int)
    throws(Failure)
  {
    let length = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { expected in
      index + length <= bytes.count && bytes[index..<index + length].elementsEqual(expected)
    }
    guard matches else {
      throw Failure(
        offset: index,
        problem: translatable(
          "expected a value (such as true, false, null, a number or a text in quotes)"))
    }
    index += length
  }

  static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// `phrase` with its `{{found}}`: the character at `offset`.
  static func notA(_ phrase: String, _ bytes: [UInt8], _ offset: Int) -> ImportPhrase {
    ImportPhrase(phrase, ["found": shown(bytes, at: offset)])
  }

  /// The character at `offset` for a message: `“x”`, or "the end of the file".
  static func shown(_ bytes: [UInt8], at offset: Int) -> ImportPhrase.Part {
    guard offset < bytes.count else {
      return .phrase(ImportPhrase(translatable("the end of the file")))
    }
    return .text("“\(visible(bytes, at: offset))”")
  }

  /// The character at `offset` as it can be shown: itself, or `U+0001`
  /// for a control character; "" at the end.
  static func visible(_ bytes: [UInt8], at offset: Int) -> String {
    guard offset < bytes.count else { return "" }
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - offset < 4 { end += 1 }
    let character = String(decoding: bytes[offset..<end], as: UTF8.self)
    let visible =
      character.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F } == true
      ? "U+" + hex(UInt32(bytes[offset]), digits: 4) : character
    return visible
  }

  static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
