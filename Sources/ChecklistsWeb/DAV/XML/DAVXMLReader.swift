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
  case tooLarge(String)
  /// A document type declaration, an entity other than XML's five, a
  /// processing instruction or a CDATA section: what a WebDAV body never
  /// needs, and what entity expansion ("billion laughs") and external
  /// entities are made of.
  case forbidden(String)
  /// Not well-formed, or a prefix no `xmlns` declares.
  case malformed(String)

  var message: String {
    switch self {
    case .tooLarge(let what): "the XML body is too large: \(what)"
    case .forbidden(let what): "the XML body holds \(what), which is not accepted here"
    case .malformed(let what): "the XML body is not well-formed: \(what)"
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
    guard bytes.count <= maximumBytes else { throw .tooLarge("more than \(maximumBytes) bytes") }
    guard String(validating: bytes, as: UTF8.self) != nil else { throw .malformed("not UTF-8") }
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
      guard let end = find("?>") else { throw .malformed("the XML declaration is not closed") }
      index = end + 2
    }
    try skipMisc()
    guard starts(with: "<") else { throw .malformed("no root element") }
    let root = try element(depth: 1)
    try skipMisc()
    guard index == bytes.count else { throw .malformed("something after the root element") }
    return root
  }

  /// Whitespace and comments (outside the root, or between children).
  mutating func skipMisc() throws(DAVXMLError) {
    while true {
      skipWhitespace()
      if starts(with: "<!--") {
        try comment()
      } else if starts(with: "<!") {
        throw .forbidden("a document type declaration or CDATA section")
      } else if starts(with: "<?") {
        throw .forbidden("a processing instruction")
      } else {
        return
      }
    }
  }

  mutating func comment() throws(DAVXMLError) {
    guard let end = find("-->", from: index + 4) else {
      throw .malformed("a comment is not closed")
    }
    index = end + 3
  }

  mutating func element(depth: Int) throws(DAVXMLError) -> DAVElement {
    guard depth <= DAVXMLReader.maximumDepth else {
      throw .tooLarge("elements nested more than \(DAVXMLReader.maximumDepth) deep")
    }
    elements += 1
    guard elements <= DAVXMLReader.maximumElements else {
      throw .tooLarge("more than \(DAVXMLReader.maximumElements) elements")
    }
    index += 1  // <
    let qualifiedName = try name()
    var attributes: [(String, String)] = []
    while true {
      let hadSpace = skipWhitespace()
      guard index < bytes.count else { throw .malformed("the file ends inside <\(qualifiedName)") }
      if bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: ">") { break }
      guard hadSpace else { throw .malformed("attributes of <\(qualifiedName)> run together") }
      guard attributes.count < DAVXMLReader.maximumAttributes else {
        throw .tooLarge("more than \(DAVXMLReader.maximumAttributes) attributes on an element")
      }
      let attribute = try name()
      skipWhitespace()
      guard consume("=") else { throw .malformed("'=' expected after \(attribute)") }
      skipWhitespace()
      let value = try quoted()
      guard !attributes.contains(where: { $0.0 == attribute }) else {
        throw .malformed("\(attribute) is given twice")
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
    else { throw .malformed("<\(qualifiedName)> is not a name with at most one prefix") }
    guard let namespace = resolve(prefix) else {
      throw .malformed("the prefix \(prefix) of <\(qualifiedName)> is not declared")
    }
    var result = DAVElement(namespace: namespace, name: local)
    for (attribute, value) in attributes where !attribute.contains(":") && attribute != "xmlns" {
      result.attributes[attribute] = value
    }
    if consume("/>") { return result }
    guard consume(">") else { throw .malformed("'>' expected in <\(qualifiedName)>") }
    while true {
      guard index < bytes.count else { throw .malformed("<\(qualifiedName)> is never closed") }
      if starts(with: "</") {
        index += 2
        let closing = try name()
        skipWhitespace()
        guard closing == qualifiedName, consume(">") else {
          throw .malformed("</\(closing)> closes <\(qualifiedName)>")
        }
        return result
      } else if starts(with: "<!--") {
        try comment()
      } else if starts(with: "<!") {
        throw .forbidden("a document type declaration or CDATA section")
      } else if starts(with: "<?") {
        throw .forbidden("a processing instruction")
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
          throw .malformed("']]>' in character data")
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
    else { throw .malformed("an attribute value must be quoted") }
    let quote = bytes[index]
    index += 1
    var value: [UInt8] = []
    while true {
      guard index < bytes.count else { throw .malformed("an attribute value is not closed") }
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return String(decoding: value, as: UTF8.self)
      }
      guard byte != UInt8(ascii: "<") else { throw .malformed("'<' in an attribute value") }
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
      throw .malformed("'&' starts no reference")
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
    guard body.hasPrefix("#") else { throw .forbidden("the entity &\(body);") }
    let digits = body.dropFirst()
    let value =
      digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
    guard let value, let scalar = Unicode.Scalar(value),
      value == 0x9 || value == 0xA || value == 0xD || value >= 0x20
    else { throw .malformed("&\(body); is no character") }
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
    guard index > start, index - start <= 256 else { throw .malformed("a name is expected") }
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
