/// Runs a program's instructions against a context stack and appends bytes.
///
/// The program's arrays are read through unsafe buffers, set up once per render, so the hot
/// loop does no bounds checks and no reference counting on the template side.
struct Renderer: ~Copyable {
  /// Partials nested deeper than this are taken for a loop (a partial that includes itself
  /// whatever the data), which would otherwise overflow the thread's stack.
  static let maximumDepth = 200

  let program: Program
  let ops: UnsafeBufferPointer<Program.Op>
  let bytes: UnsafeBufferPointer<UInt8>
  let keyHashes: UnsafeBufferPointer<Int>
  var output: ByteWriter
  var stack: [TemplateValue]
  /// The block overrides in force: the outermost parent tag's win.
  var blocks: [String: Range<Int>] = [:]
  var depth = 0
  /// The path whose variable tags render `embedded` instead of a value (-1: none).
  var embeddedPath = -1
  /// The screen rendered where a layout has its content slot: its slot and context.
  var embedded: (slot: Int, context: TemplateValue)? = nil

  /// Runs `body` with a renderer over `program` that appends to `output`.
  static func with<R>(
    _ program: Program, context: TemplateValue, output: inout [UInt8], capacity: Int,
    _ body: (inout Renderer) throws(TemplateError) -> R
  ) throws(TemplateError) -> R {
    let result: Result<R, TemplateError> = program.ops.withUnsafeBufferPointer { ops in
      program.bytes.withUnsafeBufferPointer { bytes in
        program.keyHashes.withUnsafeBufferPointer { keyHashes in
          var renderer = Renderer(
            program: program, ops: ops, bytes: bytes, keyHashes: keyHashes,
            output: ByteWriter(capacity: capacity), stack: [context])
          renderer.stack.reserveCapacity(16)
          do throws(TemplateError) {
            let result = try body(&renderer)
            output.append(contentsOf: renderer.output.bytes)
            return .success(result)
          } catch {
            return .failure(error)
          }
        }
      }
    }
    return try result.get()
  }

  mutating func run(slot: Int) throws(TemplateError) {
    let range = program.slots[slot]
    try run(range.lowerBound, range.upperBound)
  }

  mutating func run(_ start: Int, _ end: Int) throws(TemplateError) {
    var pc = start
    while pc < end {
      switch ops[pc] {
      case .text(let start, let count):
        output.append(bytes.baseAddress! + start, count: count)
        pc += 1
      case .variable(let path, let escaped):
        if path == embeddedPath {
          try embed(escaped: escaped)
        } else if let (value, plain) = resolveField(path) {
          append(value, escaped: escaped && !plain)
        }
        pc += 1
      case .section(let path, let sectionEnd):
        if let value = resolve(path) {
          if case .list(let items) = value {
            for item in items {
              stack.append(item)
              try run(pc + 1, sectionEnd)
              stack.removeLast()
            }
          } else if value.isTruthy {
            stack.append(value)
            try run(pc + 1, sectionEnd)
            stack.removeLast()
          }
        }
        pc = sectionEnd
      case .inverted(let path, let sectionEnd):
        if !(resolve(path)?.isTruthy ?? false) {
          try run(pc + 1, sectionEnd)
        }
        pc = sectionEnd
      case .call(let slot, let site):
        try call(slot, site: site)
        pc += 1
      case .parent(let slot, let site, let overrides, let parentEnd):
        let saved = blocks
        for (name, range) in program.overrides[overrides] where blocks[name] == nil {
          blocks[name] = range
        }
        try call(slot, site: site)
        blocks = saved
        pc = parentEnd
      case .block(let name, let blockEnd):
        if !blocks.isEmpty, let range = blocks[program.blockNames[name]] {
          try run(range.lowerBound, range.upperBound)
        } else {
          try run(pc + 1, blockEnd)
        }
        pc = blockEnd
      }
    }
  }

  /// Renders the embedded screen against its own context, straight into the output (or, for
  /// an escaped tag, into a scratch buffer that is then escaped).
  mutating func embed(escaped: Bool) throws(TemplateError) {
    guard let (slot, context) = embedded else { return }
    // The screen's own variables of the same name are ordinary look-ups.
    let savedPath = embeddedPath
    embeddedPath = -1
    var savedStack = [context]
    swap(&stack, &savedStack)
    let savedBlocks = blocks
    blocks = [:]
    defer {
      swap(&stack, &savedStack)
      blocks = savedBlocks
      embeddedPath = savedPath
    }
    let mark = output.count
    try run(slot: slot)
    guard escaped else { return }
    let screen = Array(UnsafeBufferPointer(rebasing: output.bytes[mark...]))
    output.truncate(to: mark)
    screen.withUnsafeBufferPointer { screen in
      HTMLEscaping.escape(screen) { output.append($0) }
    }
  }

  mutating func call(_ slot: Int, site: Int) throws(TemplateError) {
    guard depth < Self.maximumDepth else {
      let (template, name, line) = program.sites[site]
      throw TemplateError(
        template: template, line: line,
        message: "partial \(name) nested more than \(Self.maximumDepth) deep")
    }
    depth += 1
    let range = program.slots[slot]
    try run(range.lowerBound, range.upperBound)
    depth -= 1
  }

  /// The value of a dotted name: the first part from the innermost context that has it,
  /// each further part from the value before (never from the stack again).
  mutating func resolve(_ pathIndex: Int) -> TemplateValue? {
    resolveField(pathIndex)?.value
  }

  /// The value of a dotted name: the first part from the innermost context that has it,
  /// each further part from the value before (never from the stack again); and whether it is
  /// a string that needs no escaping.
  ///
  /// `mutating` although it changes nothing: called from `run`, a non-mutating method had the
  /// renderer's 217 bytes copied for each look-up (a call to memcpy, ~90,000 a 5,000-item
  /// page), where a mutating one is passed its address.
  mutating func resolveField(_ pathIndex: Int) -> (value: TemplateValue, plain: Bool)? {
    let path = program.paths[pathIndex]
    guard path.count > 0 else { return stack.last.map { ($0, false) } }
    let hash = keyHashes[path.start]
    let name = program.keyNames[path.start]
    let found = stack.withUnsafeBufferPointer { stack -> (value: TemplateValue, plain: Bool)? in
      var index = stack.count - 1
      while index >= 0 {
        if let field = stack[index].field(hash: hash, name: name) { return field }
        index -= 1
      }
      return nil
    }
    guard var field = found else { return nil }
    var part = 1
    while part < path.count {
      let key = path.start + part
      guard let next = field.value.field(hash: keyHashes[key], name: program.keyNames[key]) else {
        return nil
      }
      field = next
      part += 1
    }
    return field
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
        appendEscaped(text)
      } else {
        appendRaw(text)
      }
    case .html(let bytes):
      bytes.withUnsafeBufferPointer { bytes in
        if escaped {
          HTMLEscaping.escape(bytes) { output.append($0) }
        } else {
          output.append(bytes)
        }
      }
    case .list(let items):
      // As JavaScript prints an array: the elements joined by commas.
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(0x2C)) }
        append(item, escaped: escaped)
      }
    }
  }

  /// Native strings are read in place; a copy (and its retain) only for a bridged one.
  mutating func appendRaw(_ text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { output.append($0) }
    if done == nil {
      var text = text
      text.withUTF8 { output.append($0) }
    }
  }

  mutating func appendEscaped(_ text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      HTMLEscaping.escape(bytes) { output.append($0) }
    }
    if done == nil {
      var text = text
      text.withUTF8 { bytes in HTMLEscaping.escape(bytes) { output.append($0) } }
    }
  }

  mutating func appendDecimal(_ number: Int) {
    output.appendDecimal(number)
  }
}
