import ArgumentParser
import ChecklistsWeb
import Foundation

/// `checklists translations`: what each language's catalogue lacks, for
/// translators and CI; also writes the catalogues' template.
struct TranslationsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "translations",
    abstract:
      "Report the phrases each language's catalogue (TEMPLATES/languages/LANG.po) lacks, leaves untranslated or has that no page uses; exit 1 if any.",
    discussion: """
      The phrases are the templates' [[marked]] text and the Swift sources' translatable(...) \
      literals. With --write-template, the catalogues' template is written first; then \
      `msgmerge --update Templates/languages/ru.po Templates/languages/checklists.pot` brings \
      a language up to date.
      """)

  @Option(help: "The Mustache templates (their catalogues are in its languages/ folder).")
  var templates: String = "Templates"

  @Option(help: "The Swift sources, searched for translatable(...) phrases.")
  var sources: String = "Sources"

  @Option(help: "Write the catalogues' template (.pot) to this path first.")
  var writeTemplate: String?

  @Option(
    help:
      "Print the plural category of each count from 0 to 200 in this language (en, ru, de), and nothing else."
  )
  var pluralCategories: String?

  func run() throws {
    if let tag = pluralCategories {
      guard let lines = LanguageReport.pluralCategories(tag: tag, through: 200) else {
        throw ValidationError("no language \(tag)")
      }
      print(lines.joined(separator: "\n"))
      return
    }
    let check = try CatalogueCheck(templatesDirectory: templates, sourcesDirectory: sources)
    if let writeTemplate {
      try check.template.write(toFile: writeTemplate, atomically: true, encoding: .utf8)
      print("wrote \(writeTemplate): \(check.phrases.count) phrases")
    }
    var complete = true
    for report in try check.reports(templatesDirectory: templates) {
      complete = complete && report.isComplete
      print(
        "\(report.language): \(check.phrases.count - report.missing.count - report.untranslated.count) of \(check.phrases.count) translated, \(report.missing.count) missing, \(report.untranslated.count) untranslated, \(report.extra.count) extra"
      )
      for msgid in report.missing { print("  missing: \(msgid)") }
      for msgid in report.untranslated { print("  untranslated: \(msgid)") }
      for msgid in report.extra { print("  extra: \(msgid)") }
    }
    if !complete { throw ExitCode(1) }
  }
}
