import Foundation

/// Every template of an app, parsed and linked once at start-up.
///
/// Each template is also a partial by its name. Partial and parent tags are resolved at load
/// to slots of an array, so rendering never looks a partial up by name. A standalone partial
/// tag with indentation gets its own copy of the partial, parsed with every line indented
/// (the spec's rule), so indentation costs nothing when rendering either.
public struct TemplateLibrary: Sendable {
  /// Linked templates; a partial's slot indexes this array.
  let slots: [[Node]]
  /// The slot of each named template, unindented.
  let slotsByName: [String: Int]
  /// The partial and parent tags that name no template, as errors to report.
  public let missingPartials: [TemplateError]

  /// Loads every `*.mustache` file of `directory`, named by its file name without the extension.
  ///
  /// Throws on a file that cannot be read, a syntax error, or a partial tag naming a template
  /// the directory does not have: an app should fail at start-up, not at request time.
  public init(directory: String) throws(TemplateError) {
    let fileNames: [String]
    do {
      fileNames = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw TemplateError(template: directory, line: 0, message: "cannot list directory: \(error)")
    }
    var templates: [String: String] = [:]
    for fileName in fileNames where fileName.hasSuffix(".mustache") {
      let path = (directory as NSString).appendingPathComponent(fileName)
      guard let data = FileManager.default.contents(atPath: path),
        let text = String(data: data, encoding: .utf8)
      else {
        throw TemplateError(template: path, line: 0, message: "cannot read as UTF-8")
      }
      templates[String(fileName.dropLast(".mustache".count))] = text
    }
    try self.init(templates: templates)
    if let missing = missingPartials.first { throw missing }
  }

  /// Parses and links `templates` (name → source). A partial tag naming no template renders
  /// as nothing, as the Mustache spec requires; `missingPartials` lists such tags.
  public init(templates: [String: String]) throws(TemplateError) {
    var linker = Linker(sources: [:])
    for name in templates.keys.sorted() {
      linker.sources[name] = try Template(templates[name]!, name: name)
    }
    var slotsByName: [String: Int] = [:]
    for name in templates.keys.sorted() {
      slotsByName[name] = try linker.slot(name, indent: "")
    }
    self.slots = linker.slots
    self.slotsByName = slotsByName
    self.missingPartials = linker.missing
  }

  /// Whether the library has a template of this name.
  public func contains(_ name: String) -> Bool {
    slotsByName[name] != nil
  }

  /// The names of the templates, sorted.
  public var names: [String] { slotsByName.keys.sorted() }

  /// Renders the template `name` against `context`, appending UTF-8 to `buffer`.
  public func render(_ name: String, context: TemplateValue, into buffer: inout [UInt8])
    throws(TemplateError)
  {
    guard let slot = slotsByName[name] else {
      throw TemplateError(template: name, line: 0, message: "no template named \(name)")
    }
    var renderer = Renderer(slots: slots, context: context)
    swap(&renderer.output, &buffer)
    defer { swap(&renderer.output, &buffer) }
    try renderer.render(slots[slot], templateName: name)
  }

  /// Renders the template `name` against `context`.
  public func render(_ name: String, context: TemplateValue) throws(TemplateError) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(4096)
    try render(name, context: context, into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// Resolves partial and parent tags to slots, parsing an indented copy of a partial for each
/// indentation it is included with.
struct Linker {
  struct Variant: Hashable {
    let name: String
    let indent: String
  }

  /// Indentation beyond this is ignored: a partial that includes itself on an indented
  /// standalone line would otherwise need a deeper copy at every level.
  static let maximumIndent = 256

  var sources: [String: Template]
  var slots: [[Node]] = []
  var slotsByVariant: [Variant: Int] = [:]
  var missing: [TemplateError] = []

  /// The slot of template `name` indented by `indent`, linking it first if needed; nil when
  /// there is no such template.
  mutating func slot(_ name: String, indent: String) throws(TemplateError) -> Int? {
    let indent = indent.utf8.count > Self.maximumIndent ? "" : indent
    let variant = Variant(name: name, indent: indent)
    if let slot = slotsByVariant[variant] { return slot }
    guard let template = sources[name] else { return nil }
    let slot = slots.count
    slots.append([])
    slotsByVariant[variant] = slot
    let nodes =
      indent.isEmpty
      ? template.nodes : try Parser.parse(Self.indent(template.source, by: indent), name: name)
    slots[slot] = try link(nodes, in: name)
    return slot
  }

  mutating func link(_ nodes: [Node], in template: String) throws(TemplateError) -> [Node] {
    var linked: [Node] = []
    linked.reserveCapacity(nodes.count)
    for node in nodes {
      switch node {
      case .text, .variable:
        linked.append(node)
      case .section(let path, let children):
        linked.append(.section(path, try link(children, in: template)))
      case .inverted(let path, let children):
        linked.append(.inverted(path, try link(children, in: template)))
      case .block(let name, let children):
        linked.append(.block(name, try link(children, in: template)))
      case .partial(let reference):
        linked.append(.partial(try resolve(reference, in: template)))
      case .parent(let reference, let blocks):
        var linkedBlocks: [String: [Node]] = [:]
        for (name, children) in blocks {
          linkedBlocks[name] = try link(children, in: template)
        }
        linked.append(.parent(try resolve(reference, in: template), blocks: linkedBlocks))
      }
    }
    return linked
  }

  mutating func resolve(_ reference: Reference, in template: String) throws(TemplateError)
    -> Reference
  {
    var resolved = reference
    if let slot = try slot(reference.name, indent: reference.indent) {
      resolved.slot = slot
    } else if !missing.contains(where: { $0.template == template && $0.line == reference.line }) {
      missing.append(
        TemplateError(
          template: template, line: reference.line,
          message: "no template named \(reference.name) for its partial tag"))
    }
    return resolved
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
