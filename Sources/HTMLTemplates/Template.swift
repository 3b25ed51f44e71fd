/// One Mustache template, parsed once into literal segments and slots.
///
/// Parsing does the work that does not depend on the data: tags are found, standalone lines
/// are stripped, names are split on dots and hashed, adjacent text is merged into one byte
/// run. Rendering then only copies bytes and looks names up.
package struct Template: Sendable {
  /// The name it was parsed with; errors and partial look-ups use it.
  package let name: String
  /// The source, kept to parse indented copies for standalone partial tags.
  let source: String
  let nodes: [Node]
  let program: Program

  /// Parses `source`; throws the first syntax error with its line.
  package init(_ source: String, name: String = "") throws(TemplateError) {
    self.name = name
    self.source = source
    self.nodes = try Parser.parse(source, name: name)
    self.program = Linker.standalone(nodes: nodes, name: name)
  }

  /// Renders without partials (a partial tag renders as nothing) and appends to `buffer`.
  package func render(_ context: TemplateValue, into buffer: inout [UInt8]) throws(TemplateError) {
    try Renderer.with(
      program, context: context, output: &buffer, capacity: program.literalBytes[0] * 2
    ) {
      renderer throws(TemplateError) in
      try renderer.run(slot: 0)
    }
  }

  /// Renders without partials (a partial tag renders as nothing).
  package func render(_ context: TemplateValue) throws(TemplateError) -> String {
    var buffer: [UInt8] = []
    try render(context, into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// A parsed piece of a template.
enum Node: Sendable {
  /// Literal bytes, copied as they are.
  case text([UInt8])
  /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
  case variable(Path, escaped: Bool)
  /// `{{#name}}...{{/name}}`.
  case section(Path, [Node])
  /// `{{^name}}...{{/name}}`.
  case inverted(Path, [Node])
  /// `{{>name}}`.
  case partial(Reference)
  /// `{{<name}}...{{/name}}`: a partial whose blocks this tag overrides.
  case parent(Reference, blocks: [String: [Node]])
  /// `{{$name}}default{{/name}}`: a place a parent tag may override.
  case block(String, [Node])
}

/// A dotted name, split and hashed; no keys means `.`, the top of the context stack.
struct Path: Sendable {
  let keys: [Key]

  init(_ name: String) {
    keys =
      name == "."
      ? []
      : name.split(separator: ".", omittingEmptySubsequences: false).map {
        Key(String($0))
      }
  }
}

/// A partial or parent tag: the template it names, the indentation of its standalone line,
/// and, once a library has linked it, the slot of that template in the library.
struct Reference: Sendable {
  let name: String
  let indent: String
  let line: Int
  var slot: Int = -1
}
