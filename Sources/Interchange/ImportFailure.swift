/// Why a file cannot be read for import: what the import page tells the
/// visitor. Nothing is changed and the file is not kept.
///
/// The sentence is a catalogue phrase with `{{tags}}` and their values,
/// so that the page can say it in the visitor's language; `message` is the
/// English one (logs and the importers' tests read it).
package struct ImportFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sentence for the visitor, saying what is wrong and where when known.
  package let phrase: ImportPhrase

  package init(_ phrase: ImportPhrase) {
    self.phrase = phrase
  }

  /// `english` (a `translatable` phrase) with the values of its `{{tags}}`.
  package init(_ english: String, _ values: [String: ImportPhrase.Part] = [:]) {
    self.phrase = ImportPhrase(english, values)
  }

  /// The sentence in English.
  package var message: String { phrase.text { $0 } }

  package var description: String { message }
}

/// A sentence of an importer's: a catalogue phrase whose `{{tags}}` are
/// filled with values, each either as the file or the visitor has it (a
/// number, a name, a member of the file) or a phrase of its own ("list 2
/// (“Trip”)", "an array"), translated before it is put in.
package struct ImportPhrase: Sendable, Equatable {
  /// What fills a tag.
  package indirect enum Part: Sendable, Equatable {
    /// Put in as it is: never translated.
    case text(String)
    /// Translated, then put in.
    case phrase(ImportPhrase)

    /// A number, as digits.
    package static func number(_ value: Int) -> Part { .text(String(value)) }
  }

  /// The English phrase, as the catalogue has it.
  package let english: String
  package let values: [String: Part]

  package init(_ english: String, _ values: [String: Part] = [:]) {
    self.english = english
    self.values = values
  }

  /// The sentence in English.
  package var message: String { text { $0 } }

  /// The sentence with its tags filled, each phrase (this one and those
  /// of its values) first passed through `translate`.
  package func text(_ translate: (String) -> String) -> String {
    var result = translate(english)
    guard result.contains("{{") else { return result }
    for (name, part) in values.sorted(by: { $0.key < $1.key }) {
      let value: String
      switch part {
      case .text(let text): value = text
      case .phrase(let phrase): value = phrase.text(translate)
      }
      result = result.replacing("{{\(name)}}", with: value)
    }
    return result
  }
}

/// Marks an English phrase for the catalogues, as gettext's `N_()` does:
/// it returns the phrase unchanged; `checklists translations` finds it in
/// the source by this name, and the import page translates it.
func translatable(_ english: String) -> String { english }
