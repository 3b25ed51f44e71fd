import ChecklistsModel
import HTTPTypes
import Preferences

/// The language a visitor's pages are in: the `AppleLanguages`
/// preference, looked up through the domains like any other.
///
/// Its registration is made for each request from the browser's
/// `Accept-Language` (`AcceptLanguage`; English when nothing matches), so
/// a visitor who never chose sees their browser's language. A choice on
/// Settings is stored in the owner's persistent domain and wins over it in
/// every browser of theirs; Reset removes it, and the pages follow each
/// browser's language again.
struct LanguageChoice: Sendable, Equatable {
  let language: Language
  /// True when the language came from `Accept-Language`: the answer then
  /// says `Vary: Accept-Language`, and a kept page is given again only to
  /// the same header (`ResponseMemo.Entry.acceptLanguage`).
  let fromBrowser: Bool

  init(language: Language, fromBrowser: Bool) {
    self.language = language
    self.fromBrowser = fromBrowser
  }

  init(preferences: VisitorDefaults, acceptLanguage: String?) {
    let browser = AcceptLanguage.preferred(acceptLanguage) ?? .english
    preferences.registerForThisRequest(strings: [browser.tag], forKey: PreferenceKey.appleLanguages)
    if preferences.isStored(forKey: PreferenceKey.appleLanguages),
      let chosen = preferences.stringArray(forKey: PreferenceKey.appleLanguages)?.lazy
        .compactMap(Language.init(tag:)).first
    {
      self.init(language: chosen, fromBrowser: false)
    } else {
      self.init(language: browser, fromBrowser: true)
    }
  }

  /// The field a page in the browser's language carries, in place of the
  /// site's `Vary: Accept-Encoding` (`SecurityHeaders` leaves a handler's
  /// own `Vary` as it is).
  static let vary = HTTPField(name: .vary, value: "Accept-Encoding, Accept-Language")
}
