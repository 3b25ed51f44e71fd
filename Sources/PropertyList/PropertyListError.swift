import Support

/// Why bytes are not a property list this module reads: a sentence that names what is
/// damaged and where, fit to show a visitor.
///
/// The sentence is a catalogue phrase (`sentence`, marked `translatable`) whose `{{tags}}`
/// are filled with values as the file has them (numbers, names, elements) and, for
/// `{{problem}}`, with a phrase of its own ("object {{object}} runs past the object area"),
/// so that the import page can say the whole of it in the visitor's language. `message`
/// is the English one (logs and tests read it).
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A catalogue phrase with the values of its `{{tags}}`, put in as they are.
  package typealias Phrase = FilledPhrase

  /// The sentence, whose `{{problem}}` (if any) `problem` fills.
  package let sentence: Phrase
  /// What is wrong inside the file, a phrase of its own.
  package let problem: Phrase?

  package init(_ english: String, _ values: [String: String] = [:], problem: Phrase? = nil) {
    sentence = Phrase(english, values)
    self.problem = problem
  }

  /// The sentence in English.
  package var message: String { text { $0 } }

  /// The sentence with `problem` put in, each phrase passed through `translate`.
  package func text(_ translate: (String) -> String) -> String {
    let whole = sentence.text(translate)
    guard let problem else { return whole }
    return whole.replacing("{{problem}}", with: problem.text(translate))
  }

  package var description: String { message }

  /// Equal when both say the same phrases with the same values (a `FilledPhrase` alone
  /// compares only the English it fills to).
  package static func == (left: PropertyListError, right: PropertyListError) -> Bool {
    func same(_ left: Phrase?, _ right: Phrase?) -> Bool {
      left?.english == right?.english && left?.values == right?.values
    }
    return same(left.sentence, right.sentence) && same(left.problem, right.problem)
  }
}

/// Marks an English phrase for the catalogues, as gettext's `N_()` does: it returns the
/// phrase unchanged; `checklists translations` finds it in the source by this name, and
/// the import page translates it.
func translatable(_ english: String) -> String { english }
