import Foundation

/// Every template of an app, parsed and linked once at start-up.
///
/// Each template is also a partial by its name. Partial and parent tags are resolved at load
/// to slots of an array, so rendering never looks a partial up by name. A standalone partial
/// tag with indentation gets its own copy of the partial, parsed with every line indented
/// (the spec's rule), so indentation costs nothing when rendering either.
package struct TemplateLibrary: Sendable {
  /// Every template, linked and flattened.
  let program: Program
  /// The slot of each named template, unindented.
  let slotsByName: [String: Int]
  /// The path-table index of each variable name used, for `render(_:context:inLayout:...)`.
  let pathsByName: [String: Int]
  /// The partial and parent tags that name no template, as errors to report.
  package let missingPartials: [TemplateError]

  /// Loads every `*.mustache` file of `directory`, named by its file name without the extension,
  /// each `[[phrase]]` replaced by `translate(phrase)` (`TranslatableText`; by default the
  /// phrase as written, the English page).
  ///
  /// Throws on a file that cannot be read, a syntax error, or a partial tag naming a template
  /// the directory does not have: an app should fail at start-up, not at request time.
  package init(directory: String, translate: (String) -> String = { $0 }) throws(TemplateError) {
    var templates: [String: String] = [:]
    for (name, source) in try Self.sources(directory: directory) {
      templates[name] = try TranslatableText.substituted(
        in: source, template: name, translate)
    }
    try self.init(templates: templates)
    if let missing = missingPartials.first { throw missing }
  }

  /// The source of every `*.mustache` file of `directory` as written, by template name.
  package static func sources(directory: String) throws(TemplateError) -> [String: String] {
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
    return templates
  }

  /// Parses and links `templates` (name → source). A partial tag naming no template renders
  /// as nothing, as the Mustache spec requires; `missingPartials` lists such tags.
  package init(templates: [String: String]) throws(TemplateError) {
    var linker = Linker(sources: [:])
    for name in templates.keys.sorted() {
      linker.sources[name] = try Template(templates[name]!, name: name)
    }
    var slotsByName: [String: Int] = [:]
    for name in templates.keys.sorted() {
      slotsByName[name] = try linker.slot(name, indent: "")
    }
    linker.emitAll()
    self.program = linker.program
    self.pathsByName = linker.pathIndex
    self.slotsByName = slotsByName
    self.missingPartials = linker.missing
  }

  /// Whether the library has a template of this name.
  package func contains(_ name: String) -> Bool {
    slotsByName[name] != nil
  }

  /// The names of the templates, sorted.
  package var names: [String] { slotsByName.keys.sorted() }

  /// Renders the template `name` against `context`, appending UTF-8 to `buffer`.
  package func render(_ name: String, context: TemplateValue, into buffer: inout [UInt8])
    throws(TemplateError)
  {
    guard let slot = slotsByName[name] else {
      throw TemplateError(template: name, line: 0, message: "no template named \(name)")
    }
    // Room for the literal text twice over, and for a 20-row list; more grows by doubling.
    let guess = max(program.literalBytes[slot] * 2, 65536)
    try Renderer.with(program, context: context, output: &buffer, capacity: guess) {
      renderer throws(TemplateError) in
      try renderer.run(slot: slot)
    }
  }

  /// Renders the screen `name` against `context` inside the template `layout` rendered
  /// against `layoutContext`, where the layout has its `{{{slot}}}` tag; appends to `buffer`.
  ///
  /// The same page as rendering the screen to a String and passing it to the layout as
  /// `slot`, without that String: making one validates every byte, which cost more than
  /// rendering the screen did (measured: 60% of a 20-item Checklist page). The screen is
  /// rendered where the tag is, against its own context only; an escaped `{{slot}}` tag gets it
  /// escaped.
  package func render(
    _ name: String, context: TemplateValue, inLayout layout: String,
    context layoutContext: TemplateValue, slot: String = "content", into buffer: inout [UInt8]
  ) throws(TemplateError) {
    guard let screenSlot = slotsByName[name] else {
      throw TemplateError(template: name, line: 0, message: "no template named \(name)")
    }
    guard let layoutSlot = slotsByName[layout] else {
      throw TemplateError(template: layout, line: 0, message: "no template named \(layout)")
    }
    let guess = max(
      (program.literalBytes[screenSlot] + program.literalBytes[layoutSlot]) * 2, 65536)
    let path = pathsByName[slot] ?? -1
    try Renderer.with(program, context: layoutContext, output: &buffer, capacity: guess) {
      renderer throws(TemplateError) in
      renderer.embeddedPath = path
      renderer.embedded = (screenSlot, context)
      try renderer.run(slot: layoutSlot)
    }
  }

  /// Renders the template `name` once for each of `contexts`, each on top of `parent` (where
  /// the template's other names are found, as in a section of the page), one after another
  /// in one buffer: the bytes, and where each rendering ends (a page's rows, which the
  /// caller may keep to write again as they are, `TemplateValue.html`).
  ///
  /// One renderer for them all: a renderer made for each row (its buffer, its stack) cost
  /// more than rendering the row did.
  package func renderEach(_ name: String, _ contexts: [TemplateValue], in parent: TemplateValue)
    throws(TemplateError) -> (bytes: [UInt8], ends: [Int])
  {
    guard let slot = slotsByName[name] else {
      throw TemplateError(template: name, line: 0, message: "no template named \(name)")
    }
    var buffer: [UInt8] = []
    var ends: [Int] = []
    guard !contexts.isEmpty else { return (buffer, ends) }
    ends.reserveCapacity(contexts.count)
    try Renderer.with(
      program, context: parent, output: &buffer,
      capacity: (program.literalBytes[slot] * 2 + 64) * contexts.count
    ) { renderer throws(TemplateError) in
      for context in contexts {
        renderer.stack.append(context)
        try renderer.run(slot: slot)
        renderer.stack.removeLast()
        ends.append(renderer.output.count)
      }
    }
    return (buffer, ends)
  }

  /// Renders the template `name` against `context`.
  package func render(_ name: String, context: TemplateValue) throws(TemplateError) -> String {
    var buffer: [UInt8] = []
    try render(name, context: context, into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}
