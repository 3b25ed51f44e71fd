/// A CLDR plural category (Unicode TR 35, "Language Plural Rules").
enum PluralCategory: String, Sendable {
  case zero, one, two, few, many, other
}

/// Which form of a counted phrase a language uses for a whole number, by
/// CLDR's rules, and where each form sits among a catalogue entry's
/// `msgstr[N]` (the order of the file's `Plural-Forms`).
///
/// Only whole numbers are counted on these pages, so only the integer
/// parts of the rules are written here (CLDR's `v = 0`); the tests compare
/// every count from 0 to 200 with Babel's reading of CLDR.
struct PluralRule: Sendable {
  /// The categories in the order of a catalogue entry's forms.
  let categories: [PluralCategory]
  private let categorize: @Sendable (Int) -> PluralCategory

  /// English and German: `one` for 1, `other` for every other count.
  static let english = PluralRule(categories: [.one, .other]) { $0 == 1 ? .one : .other }
  static let german = english

  /// Russian: `one` for 1, 21, 101 (but 11), `few` for 2-4, 22-24 (but
  /// 12-14), `many` for the rest of the whole numbers.
  static let russian = PluralRule(categories: [.one, .few, .many]) { count in
    let lastDigit = count % 10
    let lastTwo = count % 100
    if lastDigit == 1 && lastTwo != 11 { return .one }
    if (2...4).contains(lastDigit) && !(12...14).contains(lastTwo) { return .few }
    return .many
  }

  /// The category of `count` (its magnitude: a count is never negative here).
  func category(_ count: Int) -> PluralCategory { categorize(Int(clamping: count.magnitude)) }

  /// The index of `count`'s form among an entry's `msgstr[N]`.
  func formIndex(_ count: Int) -> Int { categories.firstIndex(of: category(count)) ?? 0 }

  /// The `nplurals` a catalogue of this rule must declare.
  var formCount: Int { categories.count }
}
