/// A library's templates flattened into one array of instructions whose operands are all
/// integers, so that rendering copies no reference-counted value: a tree of nodes holding
/// arrays and strings cost a retain and a release per node visited, which was most of the
/// render time (measured: 38 µs for a 20-item checklist as a tree).
struct Program: Sendable {
  /// One instruction. A section's body is the instructions after it, up to `end`.
  enum Op: Sendable {
    /// Copy `count` bytes of `bytes` from `start`.
    case text(start: Int, count: Int)
    /// Look up path `path` and print it.
    case variable(path: Int, escaped: Bool)
    /// Look up path `path`; run the body once per list element, or once if truthy.
    case section(path: Int, end: Int)
    /// Run the body when path `path` is falsey or missing.
    case inverted(path: Int, end: Int)
    /// Run template slot `slot`; `site` indexes `sites`, for errors.
    case call(slot: Int, site: Int)
    /// Run template slot `slot` with the block overrides `overrides`; then continue at `end`
    /// (the override bodies sit between this instruction and `end`).
    case parent(slot: Int, site: Int, overrides: Int, end: Int)
    /// Run the override of block `name` if there is one, else the body (the default).
    case block(name: Int, end: Int)
  }

  /// A path: `count` keys of `keys` from `start`; no keys means `.`.
  struct PathRange: Sendable {
    let start: Int
    let count: Int
  }

  var ops: [Op] = []
  var bytes: [UInt8] = []
  var keyHashes: [Int] = []
  var keyNames: [String] = []
  var paths: [PathRange] = []
  /// The instructions of each slot.
  var slots: [Range<Int>] = []
  /// Where each call comes from: template name and line.
  var sites: [(template: String, name: String, line: Int)] = []
  var blockNames: [String] = []
  /// Each parent tag's overrides: block name → instructions.
  var overrides: [[String: Range<Int>]] = []
  /// The literal bytes of each slot, before partials: a first guess at the output size.
  var literalBytes: [Int] = []
}

/// Resolves partial and parent tags to slots, parsing an indented copy of a partial for each
/// indentation it is included with, then flattens every slot into one `Program`.
struct Linker {
  struct Variant: Hashable {
    let name: String
    let indent: String
  }

  /// Indentation beyond this is ignored: a partial that includes itself on an indented
  /// standalone line would otherwise need a deeper copy at every level.
  static let maximumIndent = 256

  var sources: [String: Template]
  var slotNodes: [(name: String, nodes: [Node])] = []
  var slotsByVariant: [Variant: Int] = [:]
  var missing: [TemplateError] = []
  var program = Program()
  var pathIndex: [String: Int] = [:]

  init(sources: [String: Template]) {
    self.sources = sources
  }

  /// Links one template alone: its partial tags name nothing and render as nothing.
  static func standalone(nodes: [Node], name: String) -> Program {
    var linker = Linker(sources: [:])
    linker.slotNodes = [(name, nodes)]
    linker.emitAll()
    return linker.program
  }

  /// The slot of template `name` indented by `indent`, parsing it and discovering the
  /// templates it includes if needed; nil when there is no such template.
  mutating func slot(_ name: String, indent: String) throws(TemplateError) -> Int? {
    let indent = indent.utf8.count > Self.maximumIndent ? "" : indent
    let variant = Variant(name: name, indent: indent)
    if let slot = slotsByVariant[variant] { return slot }
    guard let template = sources[name] else { return nil }
    let slot = slotNodes.count
    slotsByVariant[variant] = slot
    let nodes =
      indent.isEmpty
      ? template.nodes : try Parser.parse(Self.indent(template.source, by: indent), name: name)
    slotNodes.append((name, nodes))
    try discover(nodes, in: name)
    return slot
  }

  mutating func discover(_ nodes: [Node], in template: String) throws(TemplateError) {
    for node in nodes {
      switch node {
      case .text, .variable:
        break
      case .section(_, let children), .inverted(_, let children), .block(_, let children):
        try discover(children, in: template)
      case .partial(let reference):
        try discover(reference, in: template)
      case .parent(let reference, let blocks):
        try discover(reference, in: template)
        for name in blocks.keys.sorted() { try discover(blocks[name]!, in: template) }
      }
    }
  }

  mutating func discover(_ reference: Reference, in template: String) throws(TemplateError) {
    if try slot(reference.name, indent: reference.indent) == nil,
      !missing.contains(where: { $0.template == template && $0.line == reference.line })
    {
      missing.append(
        TemplateError(
          template: template, line: reference.line,
          message: "no template named \(reference.name) for its partial tag"))
    }
  }

  /// Flattens every discovered slot, in order, into the program.
  mutating func emitAll() {
    for (name, nodes) in slotNodes {
      let start = program.ops.count
      let bytesBefore = program.bytes.count
      emit(nodes, in: name)
      program.slots.append(start..<program.ops.count)
      program.literalBytes.append(program.bytes.count - bytesBefore)
    }
  }

  mutating func emit(_ nodes: [Node], in template: String) {
    for node in nodes {
      switch node {
      case .text(let bytes):
        program.ops.append(.text(start: program.bytes.count, count: bytes.count))
        program.bytes.append(contentsOf: bytes)
      case .variable(let path, let escaped):
        program.ops.append(.variable(path: add(path), escaped: escaped))
      case .section(let path, let children):
        let at = reserve()
        emit(children, in: template)
        program.ops[at] = .section(path: add(path), end: program.ops.count)
      case .inverted(let path, let children):
        let at = reserve()
        emit(children, in: template)
        program.ops[at] = .inverted(path: add(path), end: program.ops.count)
      case .block(let name, let children):
        let at = reserve()
        emit(children, in: template)
        program.blockNames.append(name)
        program.ops[at] = .block(name: program.blockNames.count - 1, end: program.ops.count)
      case .partial(let reference):
        guard let slot = resolved(reference) else { continue }
        program.ops.append(.call(slot: slot, site: site(reference, in: template)))
      case .parent(let reference, let blocks):
        guard let slot = resolved(reference) else { continue }
        let at = reserve()
        var ranges: [String: Range<Int>] = [:]
        for name in blocks.keys.sorted() {
          let start = program.ops.count
          emit(blocks[name]!, in: template)
          ranges[name] = start..<program.ops.count
        }
        program.overrides.append(ranges)
        program.ops[at] = .parent(
          slot: slot, site: site(reference, in: template), overrides: program.overrides.count - 1,
          end: program.ops.count)
      }
    }
  }

  func resolved(_ reference: Reference) -> Int? {
    let indent = reference.indent.utf8.count > Self.maximumIndent ? "" : reference.indent
    return slotsByVariant[Variant(name: reference.name, indent: indent)]
  }

  mutating func reserve() -> Int {
    program.ops.append(.text(start: 0, count: 0))
    return program.ops.count - 1
  }

  mutating func site(_ reference: Reference, in template: String) -> Int {
    program.sites.append((template, reference.name, reference.line))
    return program.sites.count - 1
  }

  /// The index of `path` in the program's path table, shared by every use of the same name.
  mutating func add(_ path: Path) -> Int {
    let name = path.keys.isEmpty ? "." : path.keys.map(\.name).joined(separator: ".")
    if let index = pathIndex[name] { return index }
    let start = program.keyHashes.count
    for key in path.keys {
      program.keyHashes.append(key.hash)
      program.keyNames.append(key.name)
    }
    program.paths.append(Program.PathRange(start: start, count: path.keys.count))
    pathIndex[name] = program.paths.count - 1
    return program.paths.count - 1
  }

  /// `source` with `indent` before every line (but after a final newline).
  static func indent(_ source: String, by indent: String) -> String {
    var result = ""
    result.reserveCapacity(source.utf8.count + indent.utf8.count * 8)
    var atLineStart = true
    for character in source.unicodeScalars {
      if atLineStart {
        result += indent
        atLineStart = false
      }
      result.unicodeScalars.append(character)
      if character == "\n" { atLineStart = true }
    }
    return result
  }
}
