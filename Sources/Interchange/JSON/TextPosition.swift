/// A place in a file as a visitor's editor shows it: line and column, both
/// from 1, the column counted in characters (Unicode scalars) rather than
/// bytes. Worked out only for a message, by counting from the start.
struct TextPosition: Equatable {
  var line: Int
  var column: Int

  /// - Parameter start: where the text starts (past a byte order mark,
  ///   which an editor does not show).
  init(of offset: Int, in bytes: [UInt8], from start: Int) {
    line = 1
    column = 1
    for byte in bytes[min(start, bytes.count)..<min(max(offset, start), bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
  }

  /// "line 3, column 7".
  var description: String { phrase.message }

  /// "line 3, column 7", for the catalogue.
  var phrase: ImportPhrase {
    ImportPhrase(
      translatable("line {{line}}, column {{column}}"),
      ["line": .number(line), "column": .number(column)])
  }
}

/// The offset of the first byte of `bytes` (from `start`) that is not part
/// of well-formed UTF-8 (no overlong forms, no surrogates, nothing past
/// U+10FFFF: Unicode's table 3-7), or nil when all of it is.
enum UTF8Check {
  static func firstInvalidOffset(in bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      guard index + 1 < count, (low...high).contains(bytes[index + 1]) else { return index }
      for next in 2..<length {
        guard index + next < count, bytes[index + next] & 0xC0 == 0x80 else { return index }
      }
      index += length
    }
    return nil
  }
}
