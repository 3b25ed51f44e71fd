/// Walks parsed nodes against a context stack and appends bytes.
struct Renderer {
  /// Partials nested deeper than this are taken for a loop (a partial that includes itself
  /// whatever the data), which would otherwise overflow the thread's stack.
  static let maximumDepth = 200

  /// The linked templates of a library, indexed by `Reference.slot`.
  let slots: [[Node]]
  var output: [UInt8] = []
  var stack: [TemplateValue]
  /// The block overrides in force: the outermost parent tag's win.
  var blocks: [String: [Node]] = [:]
  var depth = 0

  init(slots: [[Node]], context: TemplateValue) {
    self.slots = slots
    stack = [context]
    stack.reserveCapacity(16)
  }

  mutating func render(_ nodes: [Node], templateName: String) throws(TemplateError) {
    for node in nodes {
      switch node {
      case .text(let bytes):
        output.append(contentsOf: bytes)
      case .variable(let path, let escaped):
        if let value = resolve(path) { append(value, escaped: escaped) }
      case .section(let path, let children):
        guard let value = resolve(path) else { continue }
        if case .list(let items) = value {
          for item in items {
            stack.append(item)
            try render(children, templateName: templateName)
            stack.removeLast()
          }
        } else if value.isTruthy {
          stack.append(value)
          try render(children, templateName: templateName)
          stack.removeLast()
        }
      case .inverted(let path, let children):
        if !(resolve(path)?.isTruthy ?? false) {
          try render(children, templateName: templateName)
        }
      case .partial(let reference):
        try include(reference, templateName: templateName)
      case .parent(let reference, let overrides):
        let saved = blocks
        for (name, nodes) in overrides where blocks[name] == nil {
          blocks[name] = nodes
        }
        try include(reference, templateName: templateName)
        blocks = saved
      case .block(let name, let defaults):
        try render(blocks[name] ?? defaults, templateName: templateName)
      }
    }
  }

  mutating func include(_ reference: Reference, templateName: String) throws(TemplateError) {
    guard reference.slot >= 0 else { return }  // the spec: a missing partial renders as nothing
    guard depth < Self.maximumDepth else {
      throw TemplateError(
        template: templateName, line: reference.line,
        message: "partial \(reference.name) nested more than \(Self.maximumDepth) deep")
    }
    depth += 1
    try render(slots[reference.slot], templateName: reference.name)
    depth -= 1
  }

  /// The value of a dotted name: the first part from the innermost context that has it,
  /// each further part from the value before (never from the stack again).
  func resolve(_ path: Path) -> TemplateValue? {
    guard let first = path.keys.first else { return stack.last }
    var found: TemplateValue? = nil
    var index = stack.count - 1
    while index >= 0 {
      if case .object(let object) = stack[index], let value = object.value(for: first) {
        found = value
        break
      }
      index -= 1
    }
    guard var value = found else { return nil }
    var part = 1
    while part < path.keys.count {
      guard case .object(let object) = value, let next = object.value(for: path.keys[part]) else {
        return nil
      }
      value = next
      part += 1
    }
    return value
  }

  mutating func append(_ value: TemplateValue, escaped: Bool) {
    switch value {
    case .null, .object:
      break
    case .bool(let flag):
      appendRaw(flag ? "true" : "false")
    case .int(let number):
      appendDecimal(number)
    case .double(let number):
      // Integral values print without ".0", as in JavaScript: 3.0 shows as "3".
      if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
        appendDecimal(Int(number))
      } else {
        appendRaw(number.description)
      }
    case .string(let text):
      if escaped {
        HTMLEscaping.append(text, to: &output)
      } else {
        appendRaw(text)
      }
    case .list(let items):
      // As JavaScript prints an array: the elements joined by commas.
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(0x2C) }
        append(item, escaped: escaped)
      }
    }
  }

  mutating func appendRaw(_ text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { output.append(contentsOf: $0) }
    if done == nil { output.append(contentsOf: text.utf8) }
  }

  mutating func appendDecimal(_ number: Int) {
    if number < 0 { output.append(0x2D) }
    var magnitude = number.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = 0x30 + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }
}
