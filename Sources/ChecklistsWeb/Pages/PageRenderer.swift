import FastCGI
import HTMLTemplates
import HTTPTypes

/// Renders a screen's template inside the layout, into the bytes of a page,
/// in one of the languages (`Translations`: each its own templates).
struct PageRenderer: Sendable {
  let translations: Translations
  let assets: Assets
  /// The layout's `assets`, the same on every page, and each language's
  /// `lang`, `dir` and the address of the script's phrases
  /// (`ScriptPhrases.path`): built once.
  private let assetsValue: TemplateValue
  private let languageValues:
    [(lang: TemplateValue, rightToLeft: TemplateValue, phrases: TemplateValue)]

  init(translations: Translations, assets: Assets) {
    self.translations = translations
    self.assets = assets
    assetsValue = [
      "css": .string(assets.stylesheet), "js": .string(assets.script),
      "queue": .string(assets.queueScript), "touchIcon": .string(assets.touchIcon),
    ]
    languageValues = Language.allCases.map {
      (.string($0.tag), .bool($0.isRightToLeft), .string(ScriptPhrases.path(translations[$0])))
    }
  }

  /// The renderer of the templates of `templatesDirectory` and their
  /// catalogues (`languages/`), with the assets of `publicDirectory`.
  init(templatesDirectory: String, publicDirectory: String) throws {
    self.init(
      translations: try Translations(templatesDirectory: templatesDirectory),
      assets: try Assets(publicDirectory: publicDirectory))
  }

  /// The screen rendered straight into the layout's `content` slot (raw:
  /// it comes from a template, never from a visitor), in one buffer;
  /// `layout` is the site's, or the shared pages' (`SharedPages.layout`).
  /// `title` is shown as given: the caller translates it (a list's name is
  /// the visitor's own text).
  func render(
    _ screen: String, title: String, context: TemplateValue, layout: String = "layout",
    language: Language = .english
  ) throws(TemplateError) -> [UInt8] {
    var page: [UInt8] = []
    let (lang, rightToLeft, phrases) = languageValues[language.rawValue]
    let values: TemplateValue = .object(
      TemplateObject(fields: [
        (Self.titleKey, .string(title)), (Self.assetsKey, assetsValue), (Self.langKey, lang),
        (Self.rightToLeftKey, rightToLeft), (Self.phrasesKey, phrases),
      ]))
    try translations.templates(language).render(
      screen, context: context, inLayout: layout, context: values, slot: "content", into: &page)
    return page
  }

  private static let titleKey = TemplateKey("title")
  private static let assetsKey = TemplateKey("assets")
  private static let langKey = TemplateKey("lang")
  private static let rightToLeftKey = TemplateKey("rtl")
  private static let phrasesKey = TemplateKey("phrases")

  /// A `text/html` response of a rendered page.
  func response(
    _ screen: String, title: String, context: TemplateValue, status: HTTPResponse.Status = .ok,
    language: Language = .english
  ) throws(TemplateError) -> Response {
    .html(
      try render(screen, title: title, context: context, language: language), status: status)
  }

  /// The error page's bytes, its sentences translated; `showStatus` false
  /// leaves out "Error N" (the static 50x page stands for several statuses).
  func errorPage(
    _ error: WebError, showStatus: Bool = true, layout: String = "layout",
    language: Language = .english
  ) throws(TemplateError) -> [UInt8] {
    let catalogue = translations[language]
    let title = catalogue.text(error.title)
    var context: [String: TemplateValue] = [
      "title": .string(title),
      "message": .string(error.message(in: catalogue)),
      "back": ["href": .string(error.backHref), "label": .string(catalogue.text(error.backLabel))],
    ]
    if showStatus { context["status"] = .int(error.status.code) }
    return try render(
      "error", title: title, context: .object(TemplateObject(context)), layout: layout,
      language: language)
  }

  /// The page for an error, with its status and its own headers.
  func errorResponse(_ error: WebError, layout: String = "layout", language: Language = .english)
    -> Response
  {
    do {
      return .html(
        try errorPage(error, layout: layout, language: language), status: error.status,
        headerFields: error.headerFields)
    } catch {
      // The templates were checked at start-up; this is a last resort.
      return .plainText(Array("Internal error\n".utf8), status: .internalServerError)
    }
  }
}
