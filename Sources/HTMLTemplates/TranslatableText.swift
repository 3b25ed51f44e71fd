/// The text of a template that a language's catalogue translates, written
/// `[[Like this]]` in the template's source.
///
/// A library is made per language with each marked phrase replaced by its
/// translation *before* the source is parsed (`TemplateLibrary(directory:translate:)`),
/// so a translated page costs what the English one costs to render. A phrase
/// may hold Mustache tags (`[[Edit {{text}}]]`): the translation keeps them
/// where its language puts them, and they are parsed as the template's own.
package enum TranslatableText {
  /// Every marked phrase of `source`, in order (repeats included).
  package static func phrases(in source: String, template: String) throws(TemplateError)
    -> [String]
  {
    var found: [String] = []
    _ = try substituted(in: source, template: template) { phrase in
      found.append(phrase)
      return phrase
    }
    return found
  }

  /// `source` with each marked phrase replaced by `translate(phrase)`.
  ///
  /// Throws for a marker left open, or one that spans lines (a phrase is
  /// one line of a template, so a translator sees it whole).
  package static func substituted(
    in source: String, template: String, _ translate: (String) -> String
  ) throws(TemplateError) -> String {
    var output = ""
    output.reserveCapacity(source.utf8.count)
    var rest = Substring(source)
    while let open = rest.range(of: "[[") {
      output += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      guard let close = after.range(of: "]]") else {
        throw TemplateError(
          template: template, line: line(of: open.lowerBound, in: source),
          message: "[[ without ]]")
      }
      let phrase = after[..<close.lowerBound]
      if phrase.contains("\n") || phrase.contains("[[") {
        throw TemplateError(
          template: template, line: line(of: open.lowerBound, in: source),
          message: "a [[phrase]] must close on its own line")
      }
      output += translate(String(phrase))
      rest = after[close.upperBound...]
    }
    output += rest
    return output
  }

  private static func line(of index: String.Index, in source: String) -> Int {
    source[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
  }
}
