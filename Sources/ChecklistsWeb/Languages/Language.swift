/// A language the pages are written in.
///
/// English is the templates' own text; Russian and German come from their
/// catalogues (`Templates/languages/LANG.po`). The two pseudo-locales are
/// made from the English text for tests: accented and 40% longer
/// (`en-XA`), and the same right to left (`ar-XB`, with `dir="rtl"`), so
/// truncation, wrapping and a mirrored layout are seen before a real
/// language meets them. They are reached through `Accept-Language` only,
/// never offered on Settings.
enum Language: Int, CaseIterable, Sendable {
  case english, russian, german, pseudoAccented, pseudoRightToLeft

  /// The languages Settings → Language offers, in its order.
  static let offered: [Language] = [.english, .russian, .german]

  /// Its BCP 47 tag: `lang` on `<html>`, the value stored in `AppleLanguages`.
  var tag: String {
    switch self {
    case .english: "en"
    case .russian: "ru"
    case .german: "de"
    case .pseudoAccented: "en-XA"
    case .pseudoRightToLeft: "ar-XB"
    }
  }

  /// Its name in itself, as the language picker shows it.
  var nativeName: String {
    switch self {
    case .english: "English"
    case .russian: "Русский"
    case .german: "Deutsch"
    case .pseudoAccented: "Ƥšéûðö"
    case .pseudoRightToLeft: "Pseudo RTL"
    }
  }

  var isRightToLeft: Bool { self == .pseudoRightToLeft }

  /// The language whose catalogue file holds its translations; nil for the
  /// English text and the pseudo-locales made from it.
  var catalogueFile: String? {
    switch self {
    case .russian: "ru.po"
    case .german: "de.po"
    case .english, .pseudoAccented, .pseudoRightToLeft: nil
    }
  }

  var pluralRule: PluralRule {
    switch self {
    case .russian: .russian
    case .german: .german
    case .english, .pseudoAccented, .pseudoRightToLeft: .english
    }
  }

  /// The language of a tag, compared without case (`de`, `en-XA`); nil
  /// for any other.
  init?(tag: some StringProtocol) {
    let lowered = tag.lowercased()
    guard let found = Language.allCases.first(where: { $0.tag.lowercased() == lowered }) else {
      return nil
    }
    self = found
  }
}
