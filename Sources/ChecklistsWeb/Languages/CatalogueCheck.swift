import Foundation
import HTMLTemplates

/// The phrases the catalogues must translate, found where they are written,
/// and what each language's catalogue lacks or has too many of: what
/// `checklists translations` reports and the tests require to be empty.
///
/// The phrases are the templates' `[[marked]]` text and the Swift source's
/// `translatable("…")` and `translatable(one: "…", other: "…")` literals
/// (as `xgettext` finds gettext's keywords). The template of the
/// catalogues, `checklists.pot`, is written from them with a comment for
/// the translator on each, and gettext's `msgmerge` brings a language's
/// `.po` up to date with it.
package struct CatalogueCheck {
  /// A phrase to translate, with where it is used.
  package struct Phrase: Equatable {
    package var msgid: String
    package var msgidPlural: String?
    /// `file:line` of each use.
    package var references: [String]
    /// What the translator is told: where the phrase shows, and what its
    /// `{{tags}}` stand for.
    package var comment: String
  }

  /// What one language's catalogue lacks (`missing`: no entry), has
  /// without a translation (`untranslated`: empty or fuzzy) and has that no
  /// page uses (`extra`).
  package struct Report: Equatable {
    package var language: String
    package var missing: [String] = []
    package var untranslated: [String] = []
    package var extra: [String] = []
    package var isComplete: Bool { missing.isEmpty && untranslated.isEmpty && extra.isEmpty }
  }

  package let phrases: [Phrase]

  /// The phrases of the templates in `templatesDirectory` and of every
  /// `.swift` file under `sourcesDirectory`, each once, in the order found.
  package init(templatesDirectory: String, sourcesDirectory: String) throws {
    var phrases: [Phrase] = []
    var index: [String: Int] = [:]
    func add(_ phrase: Phrase) {
      if let at = index[phrase.msgid] {
        phrases[at].references += phrase.references
      } else {
        index[phrase.msgid] = phrases.count
        phrases.append(phrase)
      }
    }
    let sources = try TemplateLibrary.sources(directory: templatesDirectory)
    for name in sources.keys.sorted() {
      for phrase in try Self.templatePhrases(sources[name]!, name: name) { add(phrase) }
    }
    let enumerator = FileManager.default.enumerator(atPath: sourcesDirectory)
    var files: [String] = []
    while let file = enumerator?.nextObject() as? String {
      if file.hasSuffix(".swift") { files.append(file) }
    }
    for file in files.sorted() {
      let path = "\(sourcesDirectory)/\(file)"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      for phrase in Self.swiftPhrases(text, file: path) { add(phrase) }
    }
    self.phrases = phrases
  }

  /// `language`'s catalogue file compared with the phrases.
  func report(_ language: String, file: POFile) -> Report {
    var report = Report(language: language)
    let entries = Dictionary(file.entries.map { ($0.msgid, $0) }, uniquingKeysWith: { a, _ in a })
    let wanted = Set(phrases.map(\.msgid))
    for phrase in phrases {
      guard let entry = entries[phrase.msgid] else {
        report.missing.append(phrase.msgid)
        continue
      }
      if !entry.isTranslated || (entry.msgidPlural == nil) != (phrase.msgidPlural == nil) {
        report.untranslated.append(phrase.msgid)
      }
    }
    report.extra = file.entries.map(\.msgid).filter { !wanted.contains($0) }
    return report
  }

  /// Every offered language but English, with its catalogue in `templatesDirectory`.
  package func reports(templatesDirectory: String) throws -> [Report] {
    try Language.offered.compactMap { language in
      guard let name = language.catalogueFile else { return nil }
      return report(
        language.tag, file: try Translations.file(name, templatesDirectory: templatesDirectory))
    }
  }

  /// The catalogues' template (`checklists.pot`): every phrase with its
  /// comment and references, untranslated.
  package var template: String {
    var text = """
      # The phrases of Checklists' pages, for translators. Written by
      # `checklists translations --write-template`; do not edit by hand.
      msgid ""
      msgstr ""
      "Project-Id-Version: Checklists\\n"
      "MIME-Version: 1.0\\n"
      "Content-Type: text/plain; charset=UTF-8\\n"
      "Content-Transfer-Encoding: 8bit\\n"
      "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

      """
    for phrase in phrases {
      text += "\n"
      for line in phrase.comment.split(separator: "\n") { text += "#. \(line)\n" }
      for reference in phrase.references { text += "#: \(reference)\n" }
      text += "msgid \(Self.quoted(phrase.msgid))\n"
      if let plural = phrase.msgidPlural {
        text += "msgid_plural \(Self.quoted(plural))\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
      } else {
        text += "msgstr \"\"\n"
      }
    }
    return text
  }

  static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  // MARK: Finding them

  static func templatePhrases(_ source: String, name: String) throws -> [Phrase] {
    var found: [Phrase] = []
    var offset = source.startIndex
    for phrase in try TranslatableText.phrases(in: source, template: name) {
      guard let at = source[offset...].range(of: "[[\(phrase)]]") else { continue }
      let before = source[..<at.lowerBound]
      let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
      offset = at.upperBound
      found.append(
        Phrase(
          msgid: phrase, msgidPlural: nil, references: ["Templates/\(name).mustache:\(line)"],
          comment: ([Self.place(before: before, template: name)] + tagNotes(phrase))
            .joined(separator: "\n")))
    }
    return found
  }

  /// Where a template's phrase shows, from the element it is in.
  static func place(before: Substring, template: String) -> String {
    let screen = "the \(template) template"
    guard let open = before.range(of: "<", options: .backwards) else { return "On \(screen)." }
    let tag = before[open.upperBound...]
    if let attribute = tag.range(of: "aria-label=\"") ?? tag.range(of: "title=\""),
      !tag.contains(">")
    {
      _ = attribute
      return "Read aloud by screen readers (aria-label), on \(screen)."
    }
    let name = tag.prefix { $0.isLetter || $0.isNumber }
    let kind: String
    switch name {
    case "button": kind = "A button"
    case "a": kind = "A link"
    case "label": kind = "A form field's label"
    case "h1": kind = "The page's heading"
    case "h2": kind = "A section's heading"
    case "option": kind = "An option of a menu"
    case "span": kind = "Text inside a line"
    case "time": kind = "A due date's words"
    case "nav": kind = "A name for the navigation"
    case "p" where tag.contains("class=\"help\""): kind = "Help under a setting"
    case "p": kind = "A sentence"
    default: kind = "Text"
    }
    return "\(kind), on \(screen)."
  }

  /// What each `{{tag}}` of a phrase stands for, so the translator keeps it.
  static func tagNotes(_ phrase: String) -> [String] {
    Catalogue.tags(in: phrase).map { tag in
      let meaning: String
      switch tag {
      case "{{text}}": meaning = "an item's text, as the visitor typed it"
      case "{{name}}": meaning = "a list's name, as the visitor typed it"
      case "{{count}}": meaning = "a number, written in digits"
      case "{{size}}": meaning = "a size such as 1 MB (its own entry, {{count}} MB)"
      case "{{status}}": meaning = "an HTTP status code, such as 404"
      case "{{time}}": meaning = "a time on the 24-hour clock, such as 14:00"
      case "{{day}}": meaning = "a day of the month, in digits"
      case "{{month}}": meaning = "a month's abbreviation (the Jan…Dec entries)"
      case "{{year}}": meaning = "a year, in digits"
      case "{{limit}}", "{{scalars}}", "{{bytes}}", "{{megabytes}}", "{{kilobytes}}",
        "{{seconds}}", "{{minutes}}", "{{keptDays}}", "{{codeMinutes}}", "{{waitHours}}",
        "{{position}}", "{{lists}}", "{{shareLinks}}", "{{shown}}":
        meaning = "a number, written in digits"
      case "{{typed}}", "{{tag}}", "{{field}}": meaning = "what the visitor typed or sent, as sent"
      case "{{zone}}", "{{timeZone}}": meaning = "a time zone's name, such as Europe/Berlin"
      case "{{file}}", "{{fileName}}", "{{waiting.fileName}}":
        meaning = "a file's name, as the visitor's computer named it"
      case "{{format}}": meaning = "a file format's name: JSON, Markdown or Property list"
      case "{{browser}}": meaning = "a browser's name, such as Firefox"
      case "{{system}}": meaning = "an operating system's name, such as Android"
      case "{{names}}": meaning = "items' texts as the visitor typed them, separated by commas"
      case "{{summary}}": meaning = "how many lists and items (its own entries)"
      case "{{items}}": meaning = "a number of items (its own entry, {{count}} items)"
      case "{{item}}": meaning = "an item's text in quotation marks, or the “an item” entry"
      case "{{list}}", "{{listGone}}", "{{list.name}}", "{{listName}}":
        meaning = "a list's name, as the visitor typed it (quoted where the English quotes it)"
      case "{{label}}": meaning = "the link's kind (the Read-only link and Edit link entries)"
      case "{{detail}}": meaning = "what was deleted and from where (its own entries)"
      case "{{when}}", "{{until}}", "{{made}}", "{{firstSeen}}", "{{lastSeen}}", "{{waitUntil}}",
        "{{uploaded}}", "{{waiting.uploaded}}", "{{code.expires}}":
        meaning = "a date and time in the due dates' words, such as Today 14:00"
      case "{{datetime}}", "{{uploadedISO}}", "{{waiting.uploadedISO}}", "{{untilISO}}",
        "{{madeISO}}", "{{firstSeenISO}}", "{{lastSeenISO}}", "{{waitUntilISO}}",
        "{{code.expiresISO}}":
        meaning = "a machine-readable time inside the markup: keep it as it is"
      case "{{title}}", "{{userName}}": meaning = "a name the page shows as it is"
      case "{{shareLinksWord}}", "{{listsWord}}":
        meaning = "the word for the number before it, in the right form (its own entries)"
      case "{{code.enterAddress}}": meaning = "a web address"
      case "{{itemPosition}}", "{{listPosition}}", "{{line}}", "{{column}}", "{{version}}",
        "{{readable}}", "{{position}}":
        meaning = "a number, written in digits"
      case "{{member}}", "{{own}}", "{{dueDate}}", "{{one}}", "{{zero}}":
        meaning = "a name or value as a file or form has it: never translated"
      case "{{value}}", "{{found}}":
        meaning =
          "what the file holds there, in quotation marks, or its kind (the “a number”, “an array” … entries)"
      case "{{character}}", "{{escape}}": meaning = "a character's code, such as U+0007 or \\u0041"
      case "{{place}}":
        meaning =
          "where in the file: a line and column, or a list or item (their own entries)"
      case "{{subject}}": meaning = "which list or item of the file (its own entries)"
      case "{{kind}}", "{{expected}}":
        meaning = "a kind of value, such as “an array” or “true or false” (its own entries)"
      case "{{problem}}":
        meaning = "what is wrong inside the file: its JSON or property list (its own entries)"
      case "{{element}}", "{{entity}}", "{{key}}":
        meaning = "a name the file holds (an XML element, entity or key): never translated"
      case "{{reference}}": meaning = "an object's number in the file, written in digits"
      case "{{marker}}": meaning = "a byte in hexadecimal, such as 0xe: keep it as it is"
      case "{{example}}": meaning = "a machine-readable date, such as 2026-05-01T09:00:00Z"
      case "{{reason}}": meaning = "why it was refused: a sentence of its own entry"
      case "{{object}}", "{{classObject}}":
        meaning = "an object's number in the archive, or several separated by commas"
      case "{{objects}}": meaning = "which objects (the “object …” and “objects …” entries)"
      case "{{keys}}": meaning = "names the file holds, in quotation marks: never translated"
      default: meaning = "a value the page fills in"
      }
      return "\(tag) is \(meaning): keep it, anywhere in the sentence."
    }
  }

  /// The `translatable(…)` literals of a Swift file.
  static func swiftPhrases(_ text: String, file: String) -> [Phrase] {
    var found: [Phrase] = []
    let literal = #""((?:[^"\\\n]|\\.)*)""#
    let single = try! NSRegularExpression(pattern: #"translatable\(\s*"# + literal + #"\s*\)"#)
    let counted = try! NSRegularExpression(
      pattern: #"translatable\(\s*one:\s*"# + literal + #"\s*,\s*other:\s*"# + literal + #"\s*\)"#)
    let whole = NSRange(text.startIndex..., in: text)
    let name = (file as NSString).lastPathComponent
    var matches: [(NSRange, Phrase)] = []
    for match in single.matches(in: text, range: whole) {
      let msgid = unescaped(text, match.range(at: 1))
      matches.append((match.range, phrase(msgid, plural: nil, text, match.range, file, name)))
    }
    for match in counted.matches(in: text, range: whole) {
      let one = unescaped(text, match.range(at: 1))
      let other = unescaped(text, match.range(at: 2))
      matches.append((match.range, phrase(one, plural: other, text, match.range, file, name)))
    }
    for (range, phrase) in matches.sorted(by: { $0.0.location < $1.0.location })
    where !isInComment(text, range) {
      found.append(phrase)
    }
    return found
  }

  private static func phrase(
    _ msgid: String, plural: String?, _ text: String, _ range: NSRange, _ file: String,
    _ name: String
  ) -> Phrase {
    let line = text.utf16.prefix(range.location).reduce(1) { $1 == 10 ? $0 + 1 : $0 }
    let short = file.range(of: "Sources/").map { String(file[$0.lowerBound...]) } ?? file
    let place =
      plural == nil
      ? "Made by \(name) for a page."
      : "Made by \(name) for a page; one form per plural category of the language."
    let note = translatorsNote(text, before: range.location)
    return Phrase(
      msgid: msgid, msgidPlural: plural, references: ["\(short):\(line)"],
      comment: (note + [place] + tagNotes(msgid + (plural ?? ""))).joined(separator: "\n"))
  }

  /// The `// Translators: …` comment right above a phrase (the lines of
  /// `//` comments just before its line, as `xgettext --add-comments`
  /// reads them), for what the file and its tags cannot tell: where a
  /// name shows, what it is given to.
  static func translatorsNote(_ text: String, before location: Int) -> [String] {
    let source = text as NSString
    var lineStart = source.lineRange(for: NSRange(location: location, length: 0)).location
    var comment: [String] = []
    while lineStart > 0 {
      let above = source.lineRange(for: NSRange(location: lineStart - 1, length: 0))
      let line = source.substring(with: above).trimmingCharacters(in: .whitespacesAndNewlines)
      guard line.hasPrefix("//"), !line.hasPrefix("///") else { break }
      comment.insert(String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces), at: 0)
      lineStart = above.location
    }
    guard let first = comment.first, first.hasPrefix("Translators:") else { return [] }
    return [comment.joined(separator: " ")]
  }

  /// Whether the match is on a comment line (a doc comment's example).
  private static func isInComment(_ text: String, _ range: NSRange) -> Bool {
    let lineStart = (text as NSString).lineRange(for: NSRange(location: range.location, length: 0))
    let line = (text as NSString).substring(with: lineStart)
    return line.drop { $0 == " " }.hasPrefix("//")
  }

  private static func unescaped(_ text: String, _ range: NSRange) -> String {
    let raw = (text as NSString).substring(with: range)
    var result = ""
    var escaped = false
    for character in raw {
      if escaped {
        result.append(character == "n" ? "\n" : character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}

/// What `checklists translations --plural-categories` prints: the
/// category of each count in a language, to compare with CLDR's data.
package enum LanguageReport {
  /// `"N category"` for 0 through `last`; nil for a tag of no language.
  package static func pluralCategories(tag: String, through last: Int) -> [String]? {
    guard let language = Language(tag: tag) else { return nil }
    return (0...last).map { "\($0) \(language.pluralRule.category($0).rawValue)" }
  }
}
