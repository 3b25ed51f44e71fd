/// One content line (RFC 5545 §3.1), unfolded: `NAME;PARAM=VALUE:VALUE`.
///
/// The line keeps the text it was read from (`text`), which is what is
/// written back when a client's line is kept unchanged: parameters in their
/// order and spelling, quotes, escapes and case as the client sent them.
package struct ContentLine: Sendable, Equatable {
  /// The name in upper case (names are case-insensitive).
  package let name: String
  /// The parameters in their order, each name in upper case and its values
  /// without the quotes around them.
  package let parameters: [Parameter]
  /// The value as written (a TEXT value still escaped).
  package let value: String
  /// The whole line as read, unfolded.
  package let text: String

  package struct Parameter: Sendable, Equatable {
    package let name: String
    package let values: [String]
  }

  package init(name: String, parameters: [Parameter], value: String, text: String) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.text = text
  }

  /// The first value of the parameter `name` (upper case), if the line has it.
  package func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.values.first
  }

  /// The value upper-cased, for values that are keywords (`STATUS`, `BEGIN`).
  package var keyword: String { value.uppercased() }

  /// A TEXT value (§3.3.11) unescaped: `\\`, `\;`, `\,` and `\n` (or `\N`)
  /// stand for their characters; any other backslash is kept as it is.
  package var textValue: String { Self.unescape(value) }

  static func unescape(_ value: String) -> String {
    guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
    var result = ""
    var escaping = false
    for character in value {
      if escaping {
        switch character {
        case "n", "N": result.append("\n")
        case "\\", ";", ",": result.append(character)
        default:
          result.append("\\")
          result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    if escaping { result.append("\\") }
    return result
  }
}
