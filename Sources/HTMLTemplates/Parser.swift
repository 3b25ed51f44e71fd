/// Turns a template's source into nodes: tags found with the current delimiters,
/// standalone lines stripped, sections nested.
enum Parser {
  enum Kind: Equatable {
    case text
    case variable(escaped: Bool)
    case section, inverted, close, partial, parent, block, comment, delimiters
  }

  struct Token {
    var kind: Kind
    var name = ""
    var line: Int
    var text: ArraySlice<UInt8> = []
    var indent = ""
    var removed = false
  }

  static func parse(_ source: String, name: String) throws(TemplateError) -> [Node] {
    var tokens = try tokenize(Array(source.utf8), template: name)
    stripStandaloneLines(&tokens)
    return try nest(tokens, template: name)
  }

  // MARK: Tags

  static func tokenize(_ bytes: [UInt8], template: String) throws(TemplateError) -> [Token] {
    var open: [UInt8] = [0x7B, 0x7B]
    var close: [UInt8] = [0x7D, 0x7D]
    var tokens: [Token] = []
    var position = 0
    var line = 1

    func appendText(_ range: Range<Int>) {
      // One token per line piece, each ending with its newline, so that standalone
      // detection can see where lines end.
      var start = range.lowerBound
      for index in range where bytes[index] == 0x0A {
        tokens.append(Token(kind: .text, line: line, text: bytes[start...index]))
        line += 1
        start = index + 1
      }
      if start < range.upperBound {
        tokens.append(Token(kind: .text, line: line, text: bytes[start..<range.upperBound]))
      }
    }

    while position < bytes.count {
      guard let tagStart = find(open, in: bytes, from: position) else {
        appendText(position..<bytes.count)
        break
      }
      appendText(position..<tagStart)
      let contentStart = tagStart + open.count
      var token = Token(kind: .variable(escaped: true), line: line)
      var content: ArraySlice<UInt8>
      let tagEnd: Int
      if contentStart < bytes.count, bytes[contentStart] == 0x7B {  // {{{name}}}
        guard let end = find([0x7D] + close, in: bytes, from: contentStart + 1) else {
          throw TemplateError(template: template, line: line, message: "unclosed tag")
        }
        content = bytes[(contentStart + 1)..<end]
        tagEnd = end + 1 + close.count
        token.kind = .variable(escaped: false)
      } else {
        guard let end = find(close, in: bytes, from: contentStart) else {
          throw TemplateError(template: template, line: line, message: "unclosed tag")
        }
        content = bytes[contentStart..<end]
        tagEnd = end + close.count
        if let sigil = content.first {
          let kinds: [UInt8: Kind] = [
            0x23: .section, 0x5E: .inverted, 0x2F: .close, 0x3E: .partial, 0x3C: .parent,
            0x24: .block, 0x21: .comment, 0x3D: .delimiters, 0x26: .variable(escaped: false),
          ]
          if let kind = kinds[sigil] {
            token.kind = kind
            content = content.dropFirst()
          }
        }
      }
      switch token.kind {
      case .comment:
        break
      case .delimiters:
        guard content.last == 0x3D,
          let pair = delimiters(content.dropLast()),
          !pair.open.isEmpty, !pair.close.isEmpty
        else {
          throw TemplateError(
            template: template, line: line,
            message: "bad delimiter tag: expected {{=OPEN CLOSE=}}")
        }
        (open, close) = pair
      default:
        token.name = String(decoding: trimmed(content), as: UTF8.self)
        if token.name.isEmpty {
          throw TemplateError(template: template, line: line, message: "empty tag")
        }
      }
      line += bytes[tagStart..<tagEnd].lazy.filter { $0 == 0x0A }.count
      tokens.append(token)
      position = tagEnd
    }
    return tokens
  }

  /// The two delimiters of a `{{=OPEN CLOSE=}}` tag, or nil when it is not two words
  /// without `=`.
  static func delimiters(_ content: ArraySlice<UInt8>) -> (open: [UInt8], close: [UInt8])? {
    let words = content.split(whereSeparator: isWhitespace)
    guard words.count == 2, !words.contains(where: { $0.contains(0x3D) }) else { return nil }
    return (Array(words[0]), Array(words[1]))
  }

  // MARK: Standalone lines

  /// A line holding only whitespace and tags other than interpolations is "standalone":
  /// its whitespace and newline are removed, so a section or comment on a line of its own
  /// leaves no blank line. The whitespace before a standalone partial or parent tag becomes
  /// that partial's indentation. (A line may hold several such tags, as inheritance needs:
  /// `{{<parent}}{{$block}}`.)
  static func stripStandaloneLines(_ tokens: inout [Token]) {
    var lineStart = 0
    for index in tokens.indices {
      let endsLine = tokens[index].kind == .text && tokens[index].text.last == 0x0A
      if endsLine || index == tokens.count - 1 {
        stripIfStandalone(&tokens, lineStart...index)
        lineStart = index + 1
      }
    }
  }

  static func stripIfStandalone(_ tokens: inout [Token], _ line: ClosedRange<Int>) {
    var sawTag = false
    for index in line {
      switch tokens[index].kind {
      case .variable: return
      case .text:
        var text = tokens[index].text
        if text.last == 0x0A {
          text.removeLast()
          if text.last == 0x0D { text.removeLast() }
        }
        guard text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
      default: sawTag = true
      }
    }
    guard sawTag else { return }
    let first = tokens[line.lowerBound]
    let indent = first.kind == .text ? String(decoding: first.text, as: UTF8.self) : ""
    for index in line {
      switch tokens[index].kind {
      case .text: tokens[index].removed = true
      case .partial, .parent: tokens[index].indent = indent
      default: break
      }
    }
  }

  // MARK: Nesting

  struct Frame {
    var kind: Kind
    var name: String
    var line: Int
    var indent: String
    var nodes: [Node] = []
    var pendingText: [UInt8] = []

    mutating func flushText() {
      if !pendingText.isEmpty {
        nodes.append(.text(pendingText))
        pendingText = []
      }
    }

    mutating func append(_ node: Node) {
      flushText()
      nodes.append(node)
    }
  }

  static func nest(_ tokens: [Token], template: String) throws(TemplateError) -> [Node] {
    var stack = [Frame(kind: .text, name: "", line: 0, indent: "")]
    for token in tokens where !token.removed {
      switch token.kind {
      case .text:
        stack[stack.count - 1].pendingText.append(contentsOf: token.text)
      case .variable(let escaped):
        stack[stack.count - 1].append(.variable(Path(token.name), escaped: escaped))
      case .section, .inverted, .parent, .block:
        stack.append(
          Frame(kind: token.kind, name: token.name, line: token.line, indent: token.indent))
      case .partial:
        let reference = Reference(name: token.name, indent: token.indent, line: token.line)
        stack[stack.count - 1].append(.partial(reference))
      case .close:
        guard stack.count > 1 else {
          throw TemplateError(
            template: template, line: token.line,
            message: "closing tag {{/\(token.name)}} without an opening tag")
        }
        var frame = stack.removeLast()
        guard frame.name == token.name else {
          throw TemplateError(
            template: template, line: token.line,
            message:
              "closing tag {{/\(token.name)}} does not match {{\(sigil(frame.kind))\(frame.name)}} of line \(frame.line)"
          )
        }
        frame.flushText()
        stack[stack.count - 1].append(node(closing: frame))
      case .comment, .delimiters:
        break
      }
    }
    if stack.count > 1, let open = stack.last {
      throw TemplateError(
        template: template, line: open.line,
        message: "unclosed section {{\(sigil(open.kind))\(open.name)}}")
    }
    stack[0].flushText()
    return stack[0].nodes
  }

  static func node(closing frame: Frame) -> Node {
    switch frame.kind {
    case .inverted:
      return .inverted(Path(frame.name), frame.nodes)
    case .block:
      return .block(frame.name, frame.nodes)
    case .parent:
      // Only the blocks of a parent tag matter; other text inside it is ignored.
      var blocks: [String: [Node]] = [:]
      for case .block(let name, let nodes) in frame.nodes where blocks[name] == nil {
        blocks[name] = nodes
      }
      let reference = Reference(name: frame.name, indent: frame.indent, line: frame.line)
      return .parent(reference, blocks: blocks)
    default:
      return .section(Path(frame.name), frame.nodes)
    }
  }

  static func sigil(_ kind: Kind) -> String {
    switch kind {
    case .inverted: return "^"
    case .parent: return "<"
    case .block: return "$"
    default: return "#"
    }
  }

  // MARK: Bytes

  static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    var index = start
    let last = bytes.count - needle.count
    while index <= last {
      if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var result = bytes
    while let first = result.first, isWhitespace(first) { result.removeFirst() }
    while let last = result.last, isWhitespace(last) { result.removeLast() }
    return result
  }
}
