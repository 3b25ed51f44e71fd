/// A catalogue phrase (the English as the catalogue has it) with the values of its
/// `{{tags}}`, put in as they are: a reader's refusal keeps its words apart from what it
/// found (a line number, a name), so a page can word it in the visitor's language.
///
/// Two phrases are equal when they say the same in English, and a string literal is a
/// phrase with nothing left to fill: a test can expect `"':' expected after SUMMARY"`.
package struct FilledPhrase: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringInterpolation
{
  /// The English phrase, as the catalogue has it.
  package let english: String
  package let values: [String: String]

  package init(_ english: String, _ values: [String: String] = [:]) {
    self.english = english
    self.values = values
  }

  package init(stringLiteral value: String) {
    self.init(value)
  }

  package init(stringInterpolation: DefaultStringInterpolation) {
    self.init(String(stringInterpolation: stringInterpolation))
  }

  /// The phrase with its tags filled, after `translate` worded it.
  package func text(_ translate: (String) -> String) -> String {
    var result = translate(english)
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      result = result.replacing("{{\(name)}}", with: value)
    }
    return result
  }

  /// The phrase in English, its tags filled.
  package var description: String { text { $0 } }

  package static func == (left: FilledPhrase, right: FilledPhrase) -> Bool {
    left.description == right.description
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(description)
  }
}
