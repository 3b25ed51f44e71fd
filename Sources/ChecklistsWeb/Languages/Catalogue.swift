/// Marks an English phrase made in Swift for the catalogues, as gettext's
/// `N_()` does: it returns the phrase unchanged, and the catalogue check
/// (`CatalogueCheck`) finds it in the source by this name. The page
/// translates it later with `Catalogue.text(_:)`.
func translatable(_ english: String) -> String { english }

/// A counted phrase's English forms, marked for the catalogues like
/// `translatable(_:)`: `{{count}}` stands for the number.
func translatable(one: String, other: String) -> CountedPhrase {
  CountedPhrase(one: one, other: other)
}

/// A phrase with a number in it ("1 item left", "5 items left"), whose
/// form each language picks by its plural rule.
struct CountedPhrase: Sendable, Hashable {
  let one: String
  let other: String
}

/// One language's translations, looked up by the English phrase.
///
/// A phrase holds its values as Mustache-like tags, `{{name}}`, which a
/// translation may move but must keep (checked at load, so a catalogue
/// cannot drop a name or add markup the English does not have). What a
/// lookup returns is plain text: the template escapes it.
struct Catalogue: Sendable {
  let language: Language
  private let texts: [String: String]
  private let counted: [String: [String]]

  /// The English text itself, and the pseudo-locales made from it.
  init(madeFromEnglish language: Language) {
    self.language = language
    texts = [:]
    counted = [:]
  }

  /// A language's catalogue from its file. Untranslated (and fuzzy)
  /// entries fall back to the English phrase; `CatalogueCheck` reports them.
  init(_ language: Language, file: POFile, name: String) throws(POFile.Failure) {
    self.language = language
    let forms = language.pluralRule.formCount
    guard file.pluralCount == forms else {
      throw POFile.Failure(
        file: name, line: 1,
        message: "the header's Plural-Forms must say nplurals=\(forms) for \(language.tag)")
    }
    var texts: [String: String] = [:]
    var counted: [String: [String]] = [:]
    for entry in file.entries {
      for translation in entry.msgstr where !translation.isEmpty {
        guard Self.tags(in: translation) == Self.tags(in: entry.msgid) else {
          throw POFile.Failure(
            file: name, line: entry.line,
            message:
              "the translation of \"\(entry.msgid)\" must keep its {{tags}}, no more, no fewer")
        }
      }
      guard entry.isTranslated else { continue }
      if entry.msgidPlural != nil {
        guard entry.msgstr.count == forms else {
          throw POFile.Failure(
            file: name, line: entry.line, message: "\(forms) forms expected for \(language.tag)")
        }
        counted[entry.msgid] = entry.msgstr
      } else {
        texts[entry.msgid] = entry.msgstr[0]
      }
    }
    self.texts = texts
    self.counted = counted
  }

  /// The translation of `english`; `english` itself (pseudo-localised in a
  /// pseudo-locale) when there is none.
  func text(_ english: String) -> String {
    switch language {
    case .english: english
    case .pseudoAccented, .pseudoRightToLeft: PseudoLocale.text(english, language: language)
    case .russian, .german: texts[english] ?? english
    }
  }

  /// The translation of `english` with each `{{name}}` replaced by its value.
  func text(_ english: String, _ values: [(name: String, value: String)]) -> String {
    Self.fill(text(english), values)
  }

  /// The form of `phrase` for `count`, its `{{count}}` written in digits.
  func text(_ phrase: CountedPhrase, count: Int, _ values: [(name: String, value: String)] = [])
    -> String
  {
    let form: String
    switch language {
    case .english: form = count == 1 ? phrase.one : phrase.other
    case .pseudoAccented, .pseudoRightToLeft:
      form = PseudoLocale.text(count == 1 ? phrase.one : phrase.other, language: language)
    case .russian, .german:
      if let forms = counted[phrase.one] {
        form = forms[language.pluralRule.formIndex(count)]
      } else {
        form = count == 1 ? phrase.one : phrase.other
      }
    }
    return Self.fill(form, [("count", String(count))] + values)
  }

  /// Every form of `phrase` with the plural category it is for, its
  /// `{{count}}` left as a tag (for `ScriptPhrases`, whose script picks one).
  func forms(_ phrase: CountedPhrase) -> [(category: PluralCategory, text: String)] {
    let english: [(category: PluralCategory, text: String)] = [
      (.one, phrase.one), (.other, phrase.other),
    ]
    switch language {
    case .english: return english
    case .pseudoAccented, .pseudoRightToLeft:
      return english.map { ($0.category, PseudoLocale.text($0.text, language: language)) }
    case .russian, .german:
      guard let forms = counted[phrase.one] else { return english }
      return Array(zip(language.pluralRule.categories, forms)).map { ($0, $1) }
    }
  }

  /// Every `{{…}}` tag of `text`, sorted: what a translation must keep.
  static func tags(in text: String) -> [String] {
    var tags: [String] = []
    var rest = Substring(text)
    while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
      tags.append(String(rest[open.lowerBound..<close.upperBound]))
      rest = rest[close.upperBound...]
    }
    return tags.sorted()
  }

  /// `text` with each `{{name}}` of `values` replaced by its value, in one
  /// pass over the bytes: a value is never searched again, so a visitor's
  /// text holding "{{count}}" stays as typed. A name not in `values` is
  /// left as it is. (Replacing each name in turn with Foundation's
  /// `range(of:)` cost ~60,000 instructions for Scheduled Reset's one
  /// sentence, a third of a computed list page.)
  static func fill(_ text: String, _ values: [(name: String, value: String)]) -> String {
    let utf8 = text.utf8
    let open = UInt8(ascii: "{")
    let close = UInt8(ascii: "}")
    var result = ""
    var copied = utf8.startIndex
    var index = copied
    let end = utf8.endIndex
    while index < end {
      guard utf8[index] == open else {
        index = utf8.index(after: index)
        continue
      }
      let second = utf8.index(after: index)
      guard second < end, utf8[second] == open else {
        index = second
        continue
      }
      let nameStart = utf8.index(after: second)
      var nameEnd = nameStart
      while nameEnd < end, utf8[nameEnd] != close { nameEnd = utf8.index(after: nameEnd) }
      let after = nameEnd < end ? utf8.index(after: nameEnd) : end
      guard after < end, utf8[after] == close,
        let value = values.first(where: { $0.name.utf8.elementsEqual(utf8[nameStart..<nameEnd]) })?
          .value
      else {
        index = nameStart
        continue
      }
      if result.isEmpty { result.reserveCapacity(utf8.count + value.utf8.count) }
      result += text[copied..<index]
      result += value
      index = utf8.index(after: after)
      copied = index
    }
    if copied == utf8.startIndex { return text }
    result += text[copied..<end]
    return result
  }
}
