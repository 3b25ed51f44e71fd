/// Reads JSON text that `JSONSyntax.check` has passed: values are found by
/// the offset of their first byte, so a reader can look at a document's
/// members in the order it needs (a list's name before its items) whatever
/// order the file has them in.
///
/// Since the text is known to be well formed, skipping a value only counts
/// brackets outside strings (a loop, never a recursive call).
struct JSONCursor {
  /// The kinds of JSON value.
  enum Kind: Equatable {
    case object, array, string, number, bool, null

    /// For a message: "an object", "a number".
    var described: ImportPhrase {
      switch self {
      case .object: ImportPhrase(translatable("an object"))
      case .array: ImportPhrase(translatable("an array"))
      case .string: ImportPhrase(translatable("a text in quotes"))
      case .number: ImportPhrase(translatable("a number"))
      case .bool: ImportPhrase(translatable("true or false"))
      case .null: ImportPhrase("null")
      }
    }
  }

  let bytes: [UInt8]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  func kind(at offset: Int) -> Kind {
    switch bytes[offset] {
    case UInt8(ascii: "{"): .object
    case UInt8(ascii: "["): .array
    case UInt8(ascii: "\""): .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
    case UInt8(ascii: "n"): .null
    default: .number
    }
  }

  /// The offset past the value that starts at `offset`.
  func end(ofValueAt offset: Int) -> Int {
    var index = offset
    switch kind(at: offset) {
    case .string: return end(ofStringAt: offset)
    case .bool, .null, .number:
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09:
          return index
        default: index += 1
        }
      }
      return index
    case .object, .array:
      var depth = 0
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          index = end(ofStringAt: index)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default: break
        }
        index += 1
      }
      return index
    }
  }

  /// The offset past the string that starts (at its quote) at `offset`.
  func end(ofStringAt offset: Int) -> Int {
    var index = offset + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""): return index + 1
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
    return index
  }

  /// The first offset from `offset` that is not whitespace.
  func skippingWhitespace(from offset: Int) -> Int {
    var index = offset
    JSONSyntax.skipWhitespace(bytes, &index)
    return index
  }

  /// Calls `body` with each member of the object at `offset`, in the
  /// file's order: the offset of its name (at the quote) and of its value.
  /// Nothing is allocated for a member `body` passes over.
  func forEachMember<Failure: Error>(
    ofObjectAt offset: Int, _ body: (_ name: Int, _ value: Int) throws(Failure) -> Void
  ) throws(Failure) {
    var index = skippingWhitespace(from: offset + 1)
    while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let name = index
      index = skippingWhitespace(from: end(ofStringAt: index))
      index = skippingWhitespace(from: index + 1)  // past the colon
      try body(name, index)
      index = skippingWhitespace(from: end(ofValueAt: index))
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index = skippingWhitespace(from: index + 1)
      }
    }
  }

  /// Whether the string at `offset` is `text`: its bytes compared as they
  /// are, unless it has an escape.
  func string(at offset: Int, equals text: [UInt8]) -> Bool {
    let end = end(ofStringAt: offset) - 1
    guard end > offset else { return false }
    let body = bytes[(offset + 1)..<end]
    if body.elementsEqual(text) { return true }
    guard body.contains(UInt8(ascii: "\\")) else { return false }
    return string(at: offset).utf8.elementsEqual(text)
  }

  /// The offsets of the first elements of the array at `offset`, at most
  /// `limit` of them: the rest are not looked at.
  func elements(ofArrayAt offset: Int, limit: Int) -> [Int] {
    var elements: [Int] = []
    var index = skippingWhitespace(from: offset + 1)
    while index < bytes.count, bytes[index] != UInt8(ascii: "]"), elements.count < limit {
      elements.append(index)
      index = skippingWhitespace(from: end(ofValueAt: index))
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index = skippingWhitespace(from: index + 1)
      }
    }
    return elements
  }

  /// The value of the string at `offset`, escapes undone.
  func string(at offset: Int) -> String {
    let end = end(ofStringAt: offset) - 1
    let body = bytes[(offset + 1)..<max(offset + 1, end)]
    guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
    var result: [UInt8] = []
    result.reserveCapacity(body.count)
    var index = body.startIndex
    while index < body.endIndex {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < body.endIndex else {
        result.append(byte)
        index += 1
        continue
      }
      let escaped = bytes[index + 1]
      index += 2
      switch escaped {
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "n"): result.append(0x0A)
      case UInt8(ascii: "r"): result.append(0x0D)
      case UInt8(ascii: "t"): result.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = JSONSyntax.hexUnit(bytes, at: index) ?? 0xFFFD
        index += 4
        if (0xD800...0xDBFF).contains(scalar), index + 1 < body.endIndex,
          bytes[index] == UInt8(ascii: "\\"), let low = JSONSyntax.hexUnit(bytes, at: index + 2),
          (0xDC00...0xDFFF).contains(low)
        {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          index += 6
        }
        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        result.append(contentsOf: String(character).utf8)
      default: result.append(escaped)  // " \ /
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// The bytes of the number, `true`, `false` or `null` at `offset`.
  func token(at offset: Int) -> ArraySlice<UInt8> {
    bytes[offset..<end(ofValueAt: offset)]
  }
}
