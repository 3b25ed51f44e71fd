/// The pseudo-locales' text, made from the English: every ASCII letter
/// accented and the phrase padded to 40% longer between brackets
/// (`[Àļļ Ļîšţš ~~~~]`, the padding in words of up to seven tildes), so that a phrase left in plain English, a label
/// cut short or a layout that does not wrap shows at a glance; the
/// right-to-left one is also wrapped in a right-to-left override, so the
/// page reads mirrored. Tags (`{{name}}`), markup (`<code>`) and
/// character references (`&amp;`) are kept as they are.
enum PseudoLocale {
  static func text(_ english: String, language: Language) -> String {
    var result = "["
    var letters = 0
    var inside: Character? = nil
    var previous: Character = " "
    for character in english {
      if let closing = inside {
        result.append(character)
        if character == closing && (closing != "}" || previous == "}") { inside = nil }
      } else if character == "{" || character == "<" || character == "&" {
        inside = character == "{" ? "}" : character == "<" ? ">" : ";"
        result.append(character)
      } else if let accented = accents[character] {
        result.append(accented)
        letters += 1
      } else {
        result.append(character)
      }
      previous = character
    }
    result += " " + padding((letters * 4 + 9) / 10) + "]"
    return language == .pseudoRightToLeft ? "\u{202E}" + result + "\u{202C}" : result
  }

  /// `count` tildes in words of at most seven: padding in one long run
  /// would be a word no real language has, which no layout can wrap (a
  /// paragraph of Settings padded by 40 tildes overflowed a phone's width).
  static func padding(_ count: Int) -> String {
    var words: [String] = []
    var left = count
    while left > 0 {
      words.append(String(repeating: "~", count: min(left, 7)))
      left -= 7
    }
    return words.joined(separator: " ")
  }

  private static let accents: [Character: Character] = {
    let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let marked = Array("àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
    return Dictionary(uniqueKeysWithValues: zip(plain, marked))
  }()
}
