/// The pseudo-locales' text, made from the English: every ASCII letter
/// accented and the phrase padded to 40% longer between brackets
/// (`[Àļļ Ļîšţš ~~~~]`, the tildes in words of eight), so that a phrase
/// left in plain English, a label cut short or a layout that does not
/// wrap shows at a glance; the
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
    // The padding in words of at most 8, as a translation's would be: one
    // run of 60 tildes fits no phone, and would be wider than any real text.
    var padding = (letters * 4 + 9) / 10
    while padding > 0 {
      result += " " + String(repeating: "~", count: min(padding, 8))
      padding -= 8
    }
    result += "]"
    return language == .pseudoRightToLeft ? "\u{202E}" + result + "\u{202C}" : result
  }

  private static let accents: [Character: Character] = {
    let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let marked = Array("àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
    return Dictionary(uniqueKeysWithValues: zip(plain, marked))
  }()
}
