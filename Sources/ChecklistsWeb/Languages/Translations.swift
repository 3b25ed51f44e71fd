import Foundation
import HTMLTemplates

/// Every language's catalogue and its templates, made once at start-up.
///
/// Each language has a template library of its own, its phrases put into
/// the templates' source before they are parsed (`TranslatableText`), so a
/// page in Russian renders exactly as fast as the English one; Swift's
/// phrases are looked up in the language's `Catalogue` as the page is made.
struct Translations: Sendable {
  /// By `Language.rawValue`.
  private let catalogues: [Catalogue]
  private let libraries: [TemplateLibrary]
  private let dateWords: [DateWords]

  /// The catalogues' folder inside the templates' one.
  static func directory(templates: String) -> String { "\(templates)/languages" }

  /// Reads `TEMPLATES/languages/LANG.po` of every language and makes each
  /// language's templates. Throws for a catalogue that is missing or
  /// malformed, or a template that does not parse once translated: a start
  /// fails, not a page.
  init(templatesDirectory: String) throws {
    var catalogues: [Catalogue] = []
    var libraries: [TemplateLibrary] = []
    for language in Language.allCases {
      let catalogue = try Self.catalogue(language, templatesDirectory: templatesDirectory)
      catalogues.append(catalogue)
      libraries.append(
        try TemplateLibrary(directory: templatesDirectory) { catalogue.text($0) })
    }
    self.catalogues = catalogues
    self.libraries = libraries
    dateWords = catalogues.map(DateWords.init)
  }

  static func catalogue(_ language: Language, templatesDirectory: String) throws -> Catalogue {
    guard let name = language.catalogueFile else { return Catalogue(madeFromEnglish: language) }
    return try Catalogue(
      language, file: try file(name, templatesDirectory: templatesDirectory), name: name)
  }

  /// The catalogue file `name` as written.
  static func file(_ name: String, templatesDirectory: String) throws -> POFile {
    let path = "\(directory(templates: templatesDirectory))/\(name)"
    guard let data = FileManager.default.contents(atPath: path),
      let text = String(data: data, encoding: .utf8)
    else { throw POFile.Failure(file: path, line: 0, message: "cannot read as UTF-8") }
    return try POFile(text, file: path)
  }

  subscript(language: Language) -> Catalogue { catalogues[language.rawValue] }

  func templates(_ language: Language) -> TemplateLibrary { libraries[language.rawValue] }

  func dateWords(_ language: Language) -> DateWords { dateWords[language.rawValue] }
}
