/// A strict reader of XML property lists, as Foundation, CoreFoundation and Python's
/// `plistlib` write them:
///
/// ```
/// <?xml version="1.0" encoding="UTF-8"?>
/// <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
/// <plist version="1.0">
/// <dict>
///   <key>name</key>
///   <string>Groceries</string>
///   <key>items</key>
///   <array/>
/// </dict>
/// </plist>
/// ```
///
/// One value inside `<plist>` (after a `<!DOCTYPE plist …>` the wrapper may be left out,
/// as CoreFoundation allows):
/// `<dict>` (alternating `<key>` and a value), `<array>`, `<string>`, `<integer>`
/// (decimal, or hexadecimal after `0x`), `<real>`, `<true/>`, `<false/>`, `<date>`
/// (`2026-05-01T09:00:00Z`, UTC) and `<data>` (base64). A keyed archive's UID is written
/// in XML as a dictionary whose one key is `CF$UID` with an integer value; it is read
/// back as `.uid`, as CoreFoundation does.
///
/// The file must be UTF-8, or UTF-16 with its byte-order mark (read as its UTF-8
/// transcoding; Foundation's own XML parser stopped the process on some bytes that are
/// neither: twenty 0xFF bytes inside `<integer>`). Text may use the five
/// predefined entities, character references and CDATA sections; a DOCTYPE with its own
/// declarations (`[...]`, where entities would be defined) is refused, as are comments
/// inside values, attributes on values, unknown elements and text between elements.
/// The nesting is walked with a stack of its own, never by recursion, and stops at
/// `PropertyList.maximumDepth`; every step moves forward through the bytes, so reading
/// is linear in the file's size.
enum XMLPropertyListReader {
  /// Whether `bytes` start like an XML property list: after an optional byte-order mark
  /// and whitespace, a `<`, and `<plist` or `<!DOCTYPE plist` within the first KB.
  static func looksLike(_ bytes: [UInt8]) -> Bool {
    var start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    while start < bytes.count, isWhitespace(bytes[start]) { start += 1 }
    guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return false }
    let window = bytes[start..<min(bytes.count, start + 1024)]
    return contains(window, "<plist") || contains(window, "<!DOCTYPE plist")
  }

  /// - Throws: `PropertyListError` naming the line and column of the first error.
  static func read(_ bytes: [UInt8], largeIntegers: PropertyList.LargeIntegers = .refused)
    throws(PropertyListError) -> PropertyList
  {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw PropertyListError(translatable("This XML property list is not UTF-8 text."))
    }
    var parser = Parser(bytes: bytes, largeIntegers: largeIntegers)
    return try parser.parse()
  }

  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// UTF-16 text after its byte-order mark (big- or little-endian), as UTF-8 without
  /// one; nil when there is no such mark or the text is not valid UTF-16. CoreFoundation
  /// reads such files, so a stored file written by another tool in UTF-16 still reads.
  static func utf8(fromUTF16 bytes: [UInt8]) -> [UInt8]? {
    let bigEndian: Bool
    if bytes.starts(with: [0xFE, 0xFF]) {
      bigEndian = true
    } else if bytes.starts(with: [0xFF, 0xFE]) {
      bigEndian = false
    } else {
      return nil
    }
    guard bytes.count % 2 == 0 else { return nil }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2 - 1)
    var index = 2
    while index < bytes.count {
      let (high, low) =
        bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
      units.append(UInt16(high) << 8 | UInt16(low))
      index += 2
    }
    return String(validating: units, as: UTF16.self).map { Array($0.utf8) }
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return false }
    var index = bytes.startIndex
    while index <= bytes.endIndex - needle.count {
      if bytes[index..<index + needle.count].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }

  struct Parser {
    let bytes: [UInt8]
    var position = 0
    var objects: [PropertyListObject] = []

    /// An open `<array>` or `<dict>`.
    struct Frame {
      let isDictionary: Bool
      var members: [Int] = []
      var entries: [String: Int] = [:]
      /// In a dictionary: the key read, waiting for its value.
      var key: String?
    }
    var stack: [Frame] = []

    let largeIntegers: PropertyList.LargeIntegers

    init(bytes: [UInt8], largeIntegers: PropertyList.LargeIntegers) {
      self.bytes = bytes
      self.largeIntegers = largeIntegers
    }

    mutating func parse() throws(PropertyListError) -> PropertyList {
      if bytes.starts(with: byteOrderMark) { position = byteOrderMark.count }
      try skipProlog()
      let wrapped = at("<plist") && position + 6 < bytes.count && !isNameByte(bytes[position + 6])
      if wrapped {
        position += 6
        let selfClosing = try skipAttributes()
        if selfClosing { throw failure(translatable("the property list holds no value")) }
      }
      let top = try parseValue()
      if wrapped {
        try skipMisc()
        guard at("</plist") else { throw failure(translatable("expected </plist>")) }
        position += 7
        skipWhitespace()
        guard at(">") else { throw failure(translatable("expected > to end </plist>")) }
        position += 1
      }
      try skipMisc()
      guard position == bytes.count else {
        throw failure(translatable("more follows the property list"))
      }
      let list = PropertyList(format: .xml, objects: objects, top: top)
      return list
    }

    // MARK: values

    /// Reads one value, with everything inside it, and returns its position.
    mutating func parseValue() throws(PropertyListError) -> Int {
      while true {
        try skipMisc()
        guard position < bytes.count else {
          throw failure(translatable("the file ends inside a value"))
        }
        guard bytes[position] == UInt8(ascii: "<") else {
          throw failure(translatable("text stands where an element should"))
        }
        if at("</") {
          let tagStart = position
          position += 2
          let name = readName()
          skipWhitespace()
          guard at(">") else {
            throw failure(
              translatable("expected > to end </{{element}}>"), ["element": Self.shortened(name)])
          }
          position += 1
          guard let frame = stack.last, name == (frame.isDictionary ? "dict" : "array") else {
            throw failure(
              translatable("</{{element}}> closes nothing that is open"),
              ["element": Self.shortened(name)], at: tagStart)
          }
          if let key = frame.key {
            throw failure(
              translatable("the key “{{key}}” has no value"), ["key": Self.shortened(key)],
              at: tagStart)
          }
          stack.removeLast()
          let index = append(
            frame.isDictionary ? dictionaryOrUID(frame.entries) : .array(frame.members))
          if let top = try deliver(index, at: tagStart) { return top }
          continue
        }
        let tagStart = position
        position += 1
        let name = readName()
        let empty = try endOfValueTag(name)
        if let frame = stack.last, frame.isDictionary, frame.key == nil, name != "key" {
          throw failure(
            translatable("expected a <key> in the dictionary, found <{{element}}>"),
            ["element": Self.shortened(name)], at: tagStart)
        }
        let object: PropertyListObject
        switch name {
        case "array", "dict":
          if empty {
            object = name == "dict" ? .dictionary([:]) : .array([])
          } else {
            guard stack.count < PropertyList.maximumDepth else {
              throw failure(
                translatable("containers nest more than {{limit}} deep"),
                ["limit": String(PropertyList.maximumDepth)], at: tagStart)
            }
            stack.append(Frame(isDictionary: name == "dict"))
            continue
          }
        case "key":
          guard var frame = stack.last, frame.isDictionary else {
            throw failure(translatable("a <key> stands outside a dictionary"), at: tagStart)
          }
          guard frame.key == nil else {
            throw failure(
              translatable("the key “{{key}}” has no value"),
              ["key": Self.shortened(frame.key!)], at: tagStart)
          }
          let key = empty ? "" : try readText(closing: name)
          guard frame.entries[key] == nil else {
            throw failure(
              translatable("the dictionary holds the key “{{key}}” twice"),
              ["key": Self.shortened(key)], at: tagStart)
          }
          frame.key = key
          stack[stack.count - 1] = frame
          continue
        case "string":
          object = .string(empty ? "" : try readText(closing: name))
        case "integer", "real", "date", "data":
          let text = empty ? "" : try readText(closing: name)
          guard let value = Self.scalar(name, Self.trimmed(text), largeIntegers: largeIntegers)
          else {
            let problem =
              switch name {
              case "integer": translatable("<integer> does not hold an integer")
              case "real": translatable("<real> does not hold a number")
              case "date": translatable("<date> does not hold a date of the form {{example}}")
              default: translatable("<data> does not hold base64")
              }
            throw failure(problem, ["example": "2026-05-01T09:00:00Z"], at: tagStart)
          }
          object = value
        case "true", "false":
          if !empty {
            guard at("</"), bytes[(position + 2)...].starts(with: name.utf8) else {
              throw failure(translatable("expected </{{element}}>"), ["element": name])
            }
            position += 2 + name.utf8.count
            skipWhitespace()
            guard at(">") else {
              throw failure(translatable("expected > to end </{{element}}>"), ["element": name])
            }
            position += 1
          }
          object = .bool(name == "true")
        default:
          throw failure(
            translatable("<{{element}}> is not an element of property lists"),
            ["element": Self.shortened(name)], at: tagStart)
        }
        if let top = try deliver(append(object), at: tagStart) { return top }
      }
    }

    /// Puts the value at `index` into the open container, or returns it when none is open.
    mutating func deliver(_ index: Int, at tagStart: Int) throws(PropertyListError) -> Int? {
      guard var frame = stack.popLast() else { return index }
      if frame.isDictionary {
        guard let key = frame.key else {
          throw failure(translatable("a value in the dictionary has no key"), at: tagStart)
        }
        frame.entries[key] = index
        frame.key = nil
      } else {
        frame.members.append(index)
      }
      stack.append(frame)
      return nil
    }

    mutating func append(_ object: PropertyListObject) -> Int {
      objects.append(object)
      return objects.count - 1
    }

    /// A dictionary whose one key is `CF$UID` with an integer of 32 bits is a keyed
    /// archive's UID, as CoreFoundation reads it.
    func dictionaryOrUID(_ entries: [String: Int]) -> PropertyListObject {
      if entries.count == 1, let value = entries["CF$UID"],
        case .integer(let number) = objects[value],
        number >= 0, number <= Int64(UInt32.max)
      {
        return .uid(UInt64(number))
      }
      return .dictionary(entries)
    }

    /// After an element's name: `/>` (true: empty) or `>`; whitespace may come first.
    mutating func endOfValueTag(_ name: String) throws(PropertyListError) -> Bool {
      skipWhitespace()
      if at("/>") {
        position += 2
        return true
      }
      guard at(">") else {
        throw failure(
          translatable("<{{element}}> has attributes or is not closed"),
          ["element": Self.shortened(name)])
      }
      position += 1
      return false
    }

    /// The text up to `</name>`, with entities and CDATA sections resolved; moves past
    /// the closing tag.
    mutating func readText(closing name: String) throws(PropertyListError) -> String {
      var text: [UInt8] = []
      var run = position
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "<"):
          if at("<![CDATA[") {
            text += bytes[run..<position]
            position += 9
            guard let end = find("]]>") else {
              throw failure(translatable("a CDATA section is not closed"))
            }
            text += bytes[position..<end]
            position = end + 3
            run = position
            continue
          }
          guard at("</") else {
            throw failure(
              translatable("<{{element}}> holds an element; it may hold only text"),
              ["element": name])
          }
          let tagStart = position
          position += 2
          let closing = readName()
          skipWhitespace()
          guard closing == name, at(">") else {
            throw failure(translatable("expected </{{element}}>"), ["element": name], at: tagStart)
          }
          position += 1
          return text.isEmpty
            ? String(decoding: bytes[run..<tagStart], as: UTF8.self)
            : String(decoding: text + bytes[run..<tagStart], as: UTF8.self)
        case UInt8(ascii: "&"):
          text += bytes[run..<position]
          let scalar = try readEntity()
          text += Array(String(scalar).utf8)
          run = position
        default:
          position += 1
        }
      }
      throw failure(translatable("the file ends inside <{{element}}>"), ["element": name])
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#NNN;` or `&#xHHH;` at `position`.
    mutating func readEntity() throws(PropertyListError) -> Unicode.Scalar {
      let start = position
      var end = position + 1
      while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
      guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
        throw failure(translatable("an & starts no entity"))
      }
      let name = String(decoding: bytes[start + 1..<end], as: UTF8.self)
      position = end + 1
      switch name {
      case "lt": return "<"
      case "gt": return ">"
      case "amp": return "&"
      case "quot": return "\""
      case "apos": return "'"
      default:
        var digits = Substring(name)
        guard digits.first == "#" else {
          throw failure(
            translatable("&{{entity}}; is not an entity of XML"), ["entity": name], at: start)
        }
        digits = digits.dropFirst()
        var radix = 10
        if digits.first == "x" {
          radix = 16
          digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit }),
          let value = UInt32(digits, radix: radix), value != 0,
          let scalar = Unicode.Scalar(value)
        else {
          throw failure(
            translatable("&{{entity}}; is not a valid character reference"), ["entity": name],
            at: start)
        }
        return scalar
      }
    }

    // MARK: scalars

    /// The value of an `<integer>`, `<real>`, `<date>` or `<data>` element's text.
    static func scalar(
      _ name: String, _ text: Substring, largeIntegers: PropertyList.LargeIntegers = .refused
    ) -> PropertyListObject? {
      switch name {
      case "integer":
        integer(text).map(PropertyListObject.integer)
          ?? (largeIntegers == .asReals ? UInt64(text).map { .real(Double($0)) } : nil)
      case "real": real(text).map(PropertyListObject.real)
      case "date": PropertyListDate.seconds(iso8601: text).map(PropertyListObject.date)
      default: Base64.decode(text.utf8).map(PropertyListObject.data)
      }
    }

    /// A decimal integer with an optional sign, or hexadecimal after `0x`, in 64 bits.
    static func integer(_ text: Substring) -> Int64? {
      var digits = text
      var negative = false
      if let sign = digits.first, sign == "-" || sign == "+" {
        negative = sign == "-"
        digits = digits.dropFirst()
      }
      var radix: UInt64 = 10
      if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
        radix = 16
        digits = digits.dropFirst(2)
      }
      guard !digits.isEmpty else { return nil }
      var magnitude: UInt64 = 0
      for character in digits.utf8 {
        let digit: UInt64
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(character - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
          digit = UInt64(character - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
          digit = UInt64(character - UInt8(ascii: "A") + 10)
        default: return nil
        }
        let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
        let (sum, carry) = shifted.addingReportingOverflow(digit)
        guard !overflow, !carry else { return nil }
        magnitude = sum
      }
      if negative {
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
      }
      return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A real as Foundation writes it: decimal, with an exponent or not, or `nan`,
    /// `+infinity`, `-infinity`.
    static func real(_ text: Substring) -> Double? {
      guard !text.isEmpty, text.utf8.count <= 64,
        text.utf8.allSatisfy({ $0 < 0x80 && !XMLPropertyListReader.isWhitespace($0) })
      else { return nil }
      return Double(text)
    }

    static func trimmed(_ text: String) -> Substring {
      let bytes = text.utf8
      guard let first = bytes.firstIndex(where: { !XMLPropertyListReader.isWhitespace($0) })
      else { return "" }
      let last = bytes.lastIndex(where: { !XMLPropertyListReader.isWhitespace($0) })!
      return text[first...last]
    }

    static func shortened(_ text: String) -> String {
      text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    // MARK: markup

    func at(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.count - position >= count else { return false }
      let start = text.utf8Start
      for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
      return true
    }

    /// The position where `text` next starts, from `position` on.
    func find(_ text: StaticString) -> Int? {
      let needle = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
      var index = position
      while index <= bytes.count - needle.count {
        if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
          return index
        }
        index += 1
      }
      return nil
    }

    func isNameByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "."), UInt8(ascii: ":"):
        true
      default: byte >= 0x80
      }
    }

    mutating func readName() -> String {
      let start = position
      while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func skipWhitespace() {
      while position < bytes.count, XMLPropertyListReader.isWhitespace(bytes[position]) {
        position += 1
      }
    }

    /// Whitespace and comments between elements.
    mutating func skipMisc() throws(PropertyListError) {
      while true {
        skipWhitespace()
        guard at("<!--") else { return }
        try skipComment()
      }
    }

    mutating func skipComment() throws(PropertyListError) {
      let start = position
      position += 4
      guard let end = find("-->") else {
        throw failure(translatable("a comment is not closed"), at: start)
      }
      position = end + 3
    }

    /// The XML declaration, processing instructions, comments and the DOCTYPE before the
    /// first element.
    mutating func skipProlog() throws(PropertyListError) {
      while true {
        skipWhitespace()
        if at("<?") {
          guard let end = find("?>") else { throw failure(translatable("<? is not closed by ?>")) }
          position = end + 2
        } else if at("<!--") {
          try skipComment()
        } else if at("<!DOCTYPE") {
          while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if bytes[position] == UInt8(ascii: "[") {
              throw failure(translatable("a DOCTYPE with declarations of its own is not read"))
            }
            position += 1
          }
          guard position < bytes.count else {
            throw failure(translatable("the DOCTYPE is not closed"))
          }
          position += 1
        } else {
          return
        }
      }
    }

    /// The attributes of `<plist …>` (its `version`), up to `>`; true for `/>`.
    mutating func skipAttributes() throws(PropertyListError) -> Bool {
      var quote: UInt8?
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: ">") {
          return position >= 2 && bytes[position - 2] == UInt8(ascii: "/")
        } else if byte == UInt8(ascii: "<") {
          break
        }
      }
      throw failure(translatable("<plist> is not closed"))
    }

    // MARK: errors

    /// `problem` (a `translatable` phrase whose tags `values` fill) at the
    /// reader's position.
    func failure(_ problem: String, _ values: [String: String] = [:]) -> PropertyListError {
      failure(problem, values, at: position)
    }

    /// "…malformed at line 3, column 7: …", the column counted in characters.
    func failure(_ problem: String, _ values: [String: String] = [:], at offset: Int)
      -> PropertyListError
    {
      let offset = min(offset, bytes.count)
      var line = 1
      var column = 1
      for byte in bytes[..<offset] {
        if byte == 0x0A {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return PropertyListError(
        translatable(
          "This XML property list is malformed at line {{line}}, column {{column}}: {{problem}}."),
        ["line": String(line), "column": String(column)],
        problem: PropertyListError.Phrase(problem, values))
    }
  }
}
