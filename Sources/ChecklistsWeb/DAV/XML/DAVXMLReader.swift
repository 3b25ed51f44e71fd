import Support

/// An element of a WebDAV request body (`PROPFIND`, `REPORT`, …): its
/// namespace and local name, its children, and its character data.
package struct DAVElement: Sendable, Equatable {
  package let namespace: String
  package let name: String
  package var children: [DAVElement] = []
  /// The character data directly inside it, references resolved.
  package var text: String = ""
  /// Its attributes without a prefix (`name`, `negate-condition`), by name.
  package var attributes: [String: String] = [:]

  /// The `name` attribute (of a `comp-filter` or `prop-filter`).
  var attribute: String? { attributes["name"] }

  /// The first child named `name` in `namespace`.
  func child(_ namespace: String, _ name: String) -> DAVElement? {
    children.first { $0.namespace == namespace && $0.name == name }
  }

  func isNamed(_ namespace: String, _ name: String) -> Bool {
    self.namespace == namespace && self.name == name
  }
}

/// Why a request body was refused.
package enum DAVXMLError: Error, Equatable, Sendable {
  /// Larger than `DAVXMLReader.maximumBytes`, deeper than `maximumDepth`,
  /// or with more than `maximumElements` elements or `maximumAttributes`
  /// attributes on one.
  case tooLarge(FilledPhrase)
  /// A document type declaration, an entity other than XML's five, a
  /// processing instruction or a CDATA section: what a WebDAV body never
  /// needs, and what entity expansion ("billion laughs") and external
  /// entities are made of.
  case forbidden(FilledPhrase)
  /// Not well-formed, or a prefix no `xmlns` declares.
  case malformed(FilledPhrase)

  /// The refusal in an English sentence, for a log line (and the tests).
  var message: String { text { $0 } }

  /// The refusal in a sentence, each catalogue phrase worded by `translate`; what XML
  /// names (`<d:prop>`, `&xxe;`) stays as the body spells it.
  func text(_ translate: (String) -> String) -> String {
    switch self {
    case .tooLarge(let what):
      FilledPhrase(
        translatable("the XML body is too large: {{what}}"), ["what": what.text(translate)]
      )
      .text(translate)
    case .forbidden(let what):
      FilledPhrase(
        // Translators: {{what}} is "a processing instruction", "the entity &xxe;"…
        translatable("the XML body holds {{what}}, which is not accepted here"),
        ["what": what.text(translate)]
      ).text(translate)
    case .malformed(let what):
      FilledPhrase(
        translatable("the XML body is not well-formed: {{what}}"), ["what": what.text(translate)]
      ).text(translate)
    }
  }
}

/// A strict reader of the XML WebDAV clients send: elements with namespaces,
/// attributes, character data with XML's five entities and character
/// references, comments, and an XML declaration; nothing else.
///
/// Not FoundationXML's `XMLParser`: on Linux it is libxml2, which reads a
/// document type declaration and expands the entities it declares, so a
/// small body could declare an entity of entities (a "billion laughs") or
/// one that names a file or an address. Here any `<!DOCTYPE`, `<!ENTITY`
/// or `&name;` other than XML's five is refused before anything is
/// expanded, and the work is bounded by the body's size.
package enum DAVXMLReader {
  package static let maximumBytes = 64 * 1024
  package static let maximumDepth = 32
  package static let maximumElements = 5_000
  package static let maximumAttributes = 32

  package static func read(_ bytes: [UInt8]) throws(DAVXMLError) -> DAVElement {
    guard bytes.count <= maximumBytes else {
      throw .tooLarge(
        FilledPhrase(translatable("more than {{limit}} bytes"), ["limit": String(maximumBytes)]))
    }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw .malformed(FilledPhrase(translatable("not UTF-8")))
    }
    var parser = Parser(bytes: bytes)
    return try parser.document()
  }

  static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
}

private struct Parser {
  let bytes: [UInt8]
  var index = 0
  var elements = 0
  /// The prefixes in scope, innermost last (`""` is the default namespace).
  var scopes: [[String: String]] = [["xml": DAVXMLReader.xmlNamespace]]

  init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  mutating func document() throws(DAVXMLError) -> DAVElement {
    if starts(with: "<?xml "), !starts(with: "<?xml-") {
      guard let end = find("?>") else {
        throw .malformed(FilledPhrase(translatable("the XML declaration is not closed")))
      }
      index = end + 2
    }
    try skipMisc()
    guard starts(with: "<") else { throw .malformed(FilledPhrase(translatable("no root element"))) }
    let root = try element(depth: 1)
    try skipMisc()
    guard index == bytes.count else {
      throw .malformed(FilledPhrase(translatable("something after the root element")))
    }
    return root
  }

  /// Whitespace and comments (outside the root, or between children).
  mutating func skipMisc() throws(DAVXMLError) {
    while true {
      skipWhitespace()
      if starts(with: "<!--") {
        try comment()
      } else if starts(with: "<!") {
        throw .forbidden(FilledPhrase(translatable("a document type declaration or CDATA section")))
      } else if starts(with: "<?") {
        throw .forbidden(FilledPhrase(translatable("a processing instruction")))
      } else {
        return
      }
    }
  }

  mutating func comment() throws(DAVXMLError) {
    guard let end = find("-->", from: index + 4) else {
      throw .malformed(FilledPhrase(translatable("a comment is not closed")))
    }
    index = end + 3
  }

  mutating func element(depth: Int) throws(DAVXMLError) -> DAVElement {
    guard depth <= DAVXMLReader.maximumDepth else {
      throw .tooLarge(
        FilledPhrase(
          translatable("elements nested more than {{limit}} deep"),
          ["limit": String(DAVXMLReader.maximumDepth)]))
    }
    elements += 1
    guard elements <= DAVXMLReader.maximumElements else {
      throw .tooLarge(
        FilledPhrase(
          translatable("more than {{limit}} elements"),
          ["limit": String(DAVXMLReader.maximumElements)]))
    }
    index += 1  // <
    let qualifiedName = try name()
    var attributes: [(String, String)] = []
    while true {
      let hadSpace = skipWhitespace()
      guard index < bytes.count else {
        throw .malformed(
          FilledPhrase(
            // Translators: <{{element}} is the start of an XML tag as sent, left open.
            translatable("the file ends inside <{{element}}"), ["element": qualifiedName]))
      }
      if bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: ">") { break }
      guard hadSpace else {
        throw .malformed(
          FilledPhrase(
            translatable("attributes of <{{element}}> run together"), ["element": qualifiedName]))
      }
      guard attributes.count < DAVXMLReader.maximumAttributes else {
        throw .tooLarge(
          FilledPhrase(
            translatable("more than {{limit}} attributes on an element"),
            ["limit": String(DAVXMLReader.maximumAttributes)]))
      }
      let attribute = try name()
      skipWhitespace()
      guard consume("=") else {
        throw .malformed(
          FilledPhrase(translatable("'=' expected after {{attribute}}"), ["attribute": attribute]))
      }
      skipWhitespace()
      let value = try quoted()
      guard !attributes.contains(where: { $0.0 == attribute }) else {
        throw .malformed(
          FilledPhrase(translatable("{{attribute}} is given twice"), ["attribute": attribute]))
      }
      attributes.append((attribute, value))
    }
    var scope: [String: String] = [:]
    for (attribute, value) in attributes {
      if attribute == "xmlns" {
        scope[""] = value
      } else if attribute.hasPrefix("xmlns:") {
        scope[String(attribute.dropFirst(6))] = value
      }
    }
    scopes.append(scope)
    defer { scopes.removeLast() }
    let (prefix, local) = split(qualifiedName)
    guard !local.isEmpty, !local.contains(":"), prefix.isEmpty == !qualifiedName.contains(":")
    else {
      throw .malformed(
        FilledPhrase(
          translatable("<{{element}}> is not a name with at most one prefix"),
          ["element": qualifiedName]))
    }
    guard let namespace = resolve(prefix) else {
      throw .malformed(
        FilledPhrase(
          translatable("the prefix {{prefix}} of <{{element}}> is not declared"),
          ["prefix": prefix, "element": qualifiedName]))
    }
    var result = DAVElement(namespace: namespace, name: local)
    for (attribute, value) in attributes where !attribute.contains(":") && attribute != "xmlns" {
      result.attributes[attribute] = value
    }
    if consume("/>") { return result }
    guard consume(">") else {
      throw .malformed(
        FilledPhrase(translatable("'>' expected in <{{element}}>"), ["element": qualifiedName]))
    }
    while true {
      guard index < bytes.count else {
        throw .malformed(
          FilledPhrase(translatable("<{{element}}> is never closed"), ["element": qualifiedName]))
      }
      if starts(with: "</") {
        index += 2
        let closing = try name()
        skipWhitespace()
        guard closing == qualifiedName, consume(">") else {
          throw .malformed(
            FilledPhrase(
              translatable("</{{closing}}> closes <{{element}}>"),
              ["closing": closing, "element": qualifiedName]))
        }
        return result
      } else if starts(with: "<!--") {
        try comment()
      } else if starts(with: "<!") {
        throw .forbidden(FilledPhrase(translatable("a document type declaration or CDATA section")))
      } else if starts(with: "<?") {
        throw .forbidden(FilledPhrase(translatable("a processing instruction")))
      } else if starts(with: "<") {
        result.children.append(try element(depth: depth + 1))
      } else {
        result.text += try characterData()
      }
    }
  }

  /// Text up to the next `<`, its references resolved.
  mutating func characterData() throws(DAVXMLError) -> String {
    var text: [UInt8] = []
    while index < bytes.count && bytes[index] != UInt8(ascii: "<") {
      if bytes[index] == UInt8(ascii: "&") {
        text.append(contentsOf: try reference())
      } else {
        guard bytes[index] != UInt8(ascii: ">") || !text.suffix(2).elementsEqual("]]".utf8) else {
          throw .malformed(FilledPhrase(translatable("']]>' in character data")))
        }
        text.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// An attribute's value in single or double quotes, references resolved.
  mutating func quoted() throws(DAVXMLError) -> String {
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
    else { throw .malformed(FilledPhrase(translatable("an attribute value must be quoted"))) }
    let quote = bytes[index]
    index += 1
    var value: [UInt8] = []
    while true {
      guard index < bytes.count else {
        throw .malformed(FilledPhrase(translatable("an attribute value is not closed")))
      }
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return String(decoding: value, as: UTF8.self)
      }
      guard byte != UInt8(ascii: "<") else {
        throw .malformed(FilledPhrase(translatable("'<' in an attribute value")))
      }
      if byte == UInt8(ascii: "&") {
        value.append(contentsOf: try reference())
      } else {
        value.append(byte)
        index += 1
      }
    }
  }

  /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;`.
  mutating func reference() throws(DAVXMLError) -> [UInt8] {
    guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
      throw .malformed(FilledPhrase(translatable("'&' starts no reference")))
    }
    let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    index = end + 1
    switch body {
    case "lt": return Array("<".utf8)
    case "gt": return Array(">".utf8)
    case "amp": return Array("&".utf8)
    case "quot": return Array("\"".utf8)
    case "apos": return Array("'".utf8)
    default: break
    }
    guard body.hasPrefix("#") else {
      throw .forbidden(FilledPhrase(translatable("the entity &{{entity}};"), ["entity": body]))
    }
    let digits = body.dropFirst()
    let value =
      digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
    guard let value, let scalar = Unicode.Scalar(value),
      value == 0x9 || value == 0xA || value == 0xD || value >= 0x20
    else {
      throw .malformed(FilledPhrase(translatable("&{{entity}}; is no character"), ["entity": body]))
    }
    return Array(String(Character(scalar)).utf8)
  }

  /// A name: letters, digits and `_ - . :` (what WebDAV's names use).
  mutating func name() throws(DAVXMLError) -> String {
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      let isNameByte =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: ":") || byte >= 0x80
      guard isNameByte else { break }
      index += 1
    }
    guard index > start, index - start <= 256 else {
      throw .malformed(FilledPhrase(translatable("a name is expected")))
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  func split(_ qualifiedName: String) -> (String, String) {
    guard let colon = qualifiedName.firstIndex(of: ":") else { return ("", qualifiedName) }
    return (
      String(qualifiedName[..<colon]), String(qualifiedName[qualifiedName.index(after: colon)...])
    )
  }

  func resolve(_ prefix: String) -> String? {
    for scope in scopes.reversed() {
      if let namespace = scope[prefix] { return namespace }
    }
    return prefix.isEmpty ? "" : nil
  }

  @discardableResult
  mutating func skipWhitespace() -> Bool {
    let start = index
    while index < bytes.count
      && (bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
        || bytes[index] == 0x0D)
    {
      index += 1
    }
    return index > start
  }

  func starts(with text: StaticString) -> Bool {
    text.withUTF8Buffer { prefix in
      bytes.count - index >= prefix.count
        && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }
  }

  mutating func consume(_ text: StaticString) -> Bool {
    guard starts(with: text) else { return false }
    index += text.utf8CodeUnitCount
    return true
  }

  func find(_ text: StaticString, from start: Int? = nil) -> Int? {
    text.withUTF8Buffer { needle in
      var position = start ?? index
      while position + needle.count <= bytes.count {
        if bytes[position..<(position + needle.count)].elementsEqual(needle) { return position }
        position += 1
      }
      return nil
    }
  }
}
