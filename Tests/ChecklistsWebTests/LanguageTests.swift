import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Interchange
import TestSupport
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The catalogues, the plural rules, `Accept-Language` and the language as
/// a preference (`LanguageChoice`), through `Application.respond(to:)`.
@Suite struct LanguageTests {
  static let templates = BuiltTool.packageRoot + "/Templates"

  // MARK: The catalogues

  @Test func everyPhraseIsTranslatedAndNoCatalogueHasAnExtraOne() throws {
    let check = try CatalogueCheck(
      templatesDirectory: Self.templates, sourcesDirectory: BuiltTool.packageRoot + "/Sources")
    #expect(check.phrases.count > 100)
    for report in try check.reports(templatesDirectory: Self.templates) {
      #expect(report.missing.isEmpty, "\(report.language) lacks \(report.missing)")
      #expect(report.untranslated.isEmpty, "\(report.language) leaves \(report.untranslated)")
      #expect(report.extra.isEmpty, "\(report.language) has unused \(report.extra)")
    }
  }

  @Test func theCheckFindsAMissingAnUntranslatedAndAnExtraPhrase() throws {
    let check = try CatalogueCheck(
      templatesDirectory: Self.templates, sourcesDirectory: BuiltTool.packageRoot + "/Sources")
    var file = try Translations.file("de.po", templatesDirectory: Self.templates)
    let text = try String(
      contentsOfFile: Self.templates + "/languages/de.po", encoding: .utf8)
    let changed =
      text
      .replacingOccurrences(of: "msgstr \"Alle Listen\"", with: "msgstr \"\"")
      .replacingOccurrences(
        of: "msgid \"New List\"\nmsgstr \"Neue Liste\"",
        with: "msgid \"A phrase no page has\"\nmsgstr \"Ein Satz\"")
    file = try POFile(changed, file: "de.po")
    let report = check.report("de", file: file)
    #expect(report.missing == ["New List"])
    #expect(report.untranslated == ["All Lists"])
    #expect(report.extra == ["A phrase no page has"])
  }

  @Test func theCatalogueTemplateListsEveryPhraseWithAComment() throws {
    let check = try CatalogueCheck(
      templatesDirectory: Self.templates, sourcesDirectory: BuiltTool.packageRoot + "/Sources")
    let template = try POFile(check.template, file: "checklists.pot")
    #expect(template.entries.map(\.msgid) == check.phrases.map(\.msgid))
    for entry in template.entries {
      #expect(!entry.comments.isEmpty, "\(entry.msgid) has no comment for translators")
    }
    let hidden = try #require(
      template.entries.first { $0.msgid == "{{count}} checked item hidden" })
    #expect(hidden.msgidPlural == "{{count}} checked items hidden")
  }

  @Test func aMalformedCatalogueIsRefusedWithItsLine() {
    #expect(throws: POFile.Failure(file: "x.po", line: 2, message: "expected a quoted string")) {
      try POFile("msgid \"a\"\nmsgstr b\n", file: "x.po")
    }
    #expect(
      throws: POFile.Failure(
        file: "x.po", line: 1, message: "msgctxt is not used by this catalogue")
    ) {
      try POFile("msgctxt \"a\"\n", file: "x.po")
    }
    #expect(throws: POFile.Failure(file: "x.po", line: 4, message: "msgid \"a\" twice")) {
      try POFile("msgid \"a\"\nmsgstr \"b\"\n\nmsgid \"a\"\nmsgstr \"c\"\n", file: "x.po")
    }
  }

  @Test func aTranslationMustKeepItsTags() throws {
    let file = try POFile(
      """
      msgid ""
      msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

      msgid "Edit {{text}}"
      msgstr "{{{text}}} bearbeiten"
      """, file: "de.po")
    #expect(throws: POFile.Failure.self) { try Catalogue(.german, file: file, name: "de.po") }
  }

  @Test func aPluralEntryNeedsTheLanguagesNumberOfForms() throws {
    let file = try POFile(
      """
      msgid ""
      msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"
      """, file: "ru.po")
    #expect(throws: POFile.Failure.self) { try Catalogue(.russian, file: file, name: "ru.po") }
  }

  @Test func fuzzyAndEmptyEntriesFallBackToEnglish() throws {
    let file = try POFile(
      """
      msgid ""
      msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

      #, fuzzy
      msgid "Add"
      msgstr "Hinzufügen"

      msgid "Copy"
      msgstr ""

      msgid "Undo"
      msgstr "Widerrufen"
      """, file: "de.po")
    let catalogue = try Catalogue(.german, file: file, name: "de.po")
    #expect(catalogue.text("Add") == "Add")
    #expect(catalogue.text("Copy") == "Copy")
    #expect(catalogue.text("Undo") == "Widerrufen")
  }

  // MARK: Plurals

  @Test func russianCountsTakeOneFewAndMany() throws {
    let catalogue = try Translations.catalogue(.russian, templatesDirectory: Self.templates)
    let phrase = translatable(
      one: "{{count}} checked item hidden", other: "{{count}} checked items hidden")
    #expect(catalogue.text(phrase, count: 1) == "1 отмеченный пункт скрыт")
    #expect(catalogue.text(phrase, count: 2) == "2 отмеченных пункта скрыто")
    #expect(catalogue.text(phrase, count: 5) == "5 отмеченных пунктов скрыто")
    #expect(catalogue.text(phrase, count: 11) == "11 отмеченных пунктов скрыто")
    #expect(catalogue.text(phrase, count: 21) == "21 отмеченный пункт скрыт")
    #expect(catalogue.text(phrase, count: 112) == "112 отмеченных пунктов скрыто")
    #expect(catalogue.text(phrase, count: 0) == "0 отмеченных пунктов скрыто")
  }

  @Test func theRulesAgreeWithGettextsPluralFormsOfTheCatalogues() {
    // The catalogues' headers say the same in C: their msgstr[N] follow it.
    for count in 0...200 {
      let russian =
        count % 10 == 1 && count % 100 != 11
        ? 0 : (2...4).contains(count % 10) && !(12...14).contains(count % 100) ? 1 : 2
      #expect(PluralRule.russian.formIndex(count) == russian, "\(count)")
      #expect(PluralRule.german.formIndex(count) == (count == 1 ? 0 : 1), "\(count)")
    }
  }

  // MARK: Accept-Language

  @Test func acceptLanguageIsReadByQualityWithFallbackToThePrimaryTag() {
    #expect(AcceptLanguage.preferred("de-AT") == .german)
    #expect(AcceptLanguage.preferred("de-AT,de;q=0.9,en;q=0.8") == .german)
    #expect(AcceptLanguage.preferred("fr-CH, fr;q=0.9, ru;q=0.8, de;q=0.7") == .russian)
    #expect(AcceptLanguage.preferred("en;q=0.5, ru") == .russian)
    #expect(AcceptLanguage.preferred("ru;q=0, de;q=0.1") == .german)
    #expect(AcceptLanguage.preferred("fr, it") == nil)
    #expect(AcceptLanguage.preferred("*") == .english)
    #expect(AcceptLanguage.preferred("ru;q=2, de") == .german, "a q above 1 is malformed")
    #expect(AcceptLanguage.preferred("ru;q=0.1234, de;q=0.5") == .german)
    #expect(AcceptLanguage.preferred("") == nil)
    #expect(AcceptLanguage.preferred("en-XA") == .pseudoAccented)
    #expect(AcceptLanguage.preferred("ar-XB") == .pseudoRightToLeft)
    #expect(AcceptLanguage.preferred("ar") == nil)
  }

  // MARK: The language as a preference

  static func get(_ browser: ApplicationHarness, _ path: String, language: String?) -> Response {
    var fields = HTTPFields()
    if let language { fields[.acceptLanguage] = language }
    return browser.get(path, headerFields: fields)
  }

  @Test func thePagesFollowTheBrowsersLanguageUntilOneIsChosen() throws {
    let browser = try ApplicationHarness()
    browser.get("/")
    var page = Self.get(browser, "/lists", language: "ru-RU,ru;q=0.9,en;q=0.5")
    #expect(browser.text(page).contains(#"<html lang="ru">"#))
    #expect(browser.text(page).contains("<h1>Все списки</h1>"))
    #expect((page.headerFields[.vary] ?? "").contains("Accept-Language"))

    let saved = browser.post(
      "/settings", [("AppleLanguages", "de"), ("TimeZone", "UTC")],
      headerFields: [.acceptLanguage: "ru"])
    #expect(saved.status == .seeOther)
    page = Self.get(browser, "/lists", language: "ru")
    #expect(browser.text(page).contains(#"<html lang="de">"#), "a choice wins over the browser")
    #expect(browser.text(page).contains("<h1>Alle Listen</h1>"))
    #expect(!(page.headerFields[.vary] ?? "").contains("Accept-Language"))

    // Another browser of the same owner: the owner's choice.
    let settings = browser.text(Self.get(browser, "/settings", language: "en"))
    #expect(settings.contains(#"<option value="de" lang="de" selected>Deutsch</option>"#))

    #expect(
      browser.post("/settings/reset", headerFields: [.acceptLanguage: "ru"]).status == .seeOther)
    page = Self.get(browser, "/lists", language: "ru")
    #expect(browser.text(page).contains(#"<html lang="ru">"#), "Reset returns to the browser's")
    page = Self.get(browser, "/lists", language: nil)
    #expect(browser.text(page).contains(#"<html lang="en">"#))
  }

  @Test func aLanguageNotOfferedIsRefusedAndNothingIsSaved() throws {
    let browser = try ApplicationHarness()
    browser.get("/")
    let refused = browser.post("/settings", [("AppleLanguages", "xx"), ("TimeZone", "UTC")])
    #expect(refused.status == .badRequest)
    #expect(browser.storedFiles().isEmpty)
  }

  @Test func aKeptPageIsGivenOnlyToTheLanguageItWasMadeFor() throws {
    let browser = try ApplicationHarness()
    browser.get("/")
    browser.post("/lists/1/items", [("text", "milk"), ("nonce", "2")])
    // The second request of a day is kept (the first renews the cookie).
    _ = Self.get(browser, "/lists/1", language: "de")
    let kept = Self.get(browser, "/lists/1", language: "de")
    #expect(browser.text(kept).contains(#"<html lang="de">"#))
    let russian = Self.get(browser, "/lists/1", language: "ru")
    #expect(browser.text(russian).contains(#"<html lang="ru">"#))
    #expect(kept.headerFields[.eTag] != russian.headerFields[.eTag])
    // A revalidation with the German page's tag, asked in Russian: the Russian page.
    let revalidated = browser.get(
      "/lists/1",
      headerFields: [.acceptLanguage: "ru", .ifNoneMatch: kept.headerFields[.eTag] ?? ""])
    #expect(revalidated.status == .ok)
    #expect(browser.text(revalidated).contains(#"<html lang="ru">"#))
  }

  @Test func dueDatesAreWrittenInTheLanguagesForm() throws {
    let now = Date(timeIntervalSince1970: 1_900_000_000)  // 2030-03-17T17:46:40Z
    let zone = TimeZone(identifier: "UTC")!
    let catalogues = try Translations(templatesDirectory: Self.templates)
    let may = Date(timeIntervalSince1970: 1_904_724_000)  // 2030-05-11T10:00:00Z
    let later = Date(timeIntervalSince1970: 1_955_000_000)  // 2031-12-14
    let expected: [(Language, String, String, String)] = [
      (.english, "Today 18:00", "11 May 10:00", "14 Dec 2031"),
      (.russian, "Сегодня 18:00", "11 мая 10:00", "14 дек. 2031"),
      (.german, "Heute 18:00", "11. Mai 10:00", "14. Dez. 2031"),
    ]
    for (language, today, thisYear, anotherYear) in expected {
      let label = DueDateLabel(zone: zone, now: now, words: catalogues.dateWords(language))
      #expect(label.text(now.addingTimeInterval(800)) == today)
      #expect(label.text(may) == thisYear)
      #expect(label.text(later) == anotherYear)
    }
  }

  @Test func thePseudoLocalesAreLongerAccentedAndRightToLeft() throws {
    let browser = try ApplicationHarness()
    browser.get("/")
    let accented = browser.text(Self.get(browser, "/lists", language: "en-XA"))
    #expect(accented.contains(#"<html lang="en-XA">"#))
    #expect(accented.contains("<h1>[Àļļ Ļîšţš ~~~~]</h1>"))
    let mirrored = browser.text(Self.get(browser, "/lists", language: "ar-XB"))
    #expect(mirrored.contains(#"<html lang="ar-XB" dir="rtl">"#))
  }

  // MARK: Phrases made in Swift

  /// Every refusal of the model reads, in English, exactly as the model
  /// words it: the catalogue's copy of each sentence is the same one.
  @Test func theModelsRefusalsAreTheCataloguesPhrases() throws {
    let translations = try Translations(templatesDirectory: Self.templates)
    let errors: [ChecklistsError] = [
      .emptyText, .textTooLong(limit: 200), .textTooLarge, .noteTooLong(limit: 4000),
      .noteTooLarge, .tooManyLists(limit: 200), .tooManyItems(limit: 5000),
      .storageFull(limit: 2 << 20), .sharedListFull(limit: 256 << 10), .ownersStorageFull,
      .tooManyTemplates(limit: 50), .noSuchTemplate(1), .noSuchList(1), .noSuchItem(1),
      .dueDateOutOfRange, .deletedItemsListGone(listName: "Groceries"),
    ]
    for error in errors {
      #expect(error.message(in: translations[.english]) == error.message)
      let russian = error.message(in: translations[.russian])
      #expect(russian != error.message, "\(error) is not translated")
      #expect(!russian.contains("{{"), "\(error): \(russian)")
    }
    #expect(
      ChecklistsError.textTooLong(limit: 200).message(in: translations[.german])
        == "Der Text ist zu lang: höchstens 200 Zeichen, bitte.")
    #expect(
      ChecklistsError.deletedItemsListGone(listName: "Groceries").message(
        in: translations[.russian]
      ).contains("«Groceries»"))
  }

  /// An importer's refusal of a file, and the model's of the lists it
  /// read, are the catalogue's phrases with their places: in Russian no
  /// English is left but the file's own names, and in English each reads
  /// exactly as the importer words it.
  @Test func theImportersRefusalsAreTranslatedWithTheirPlaces() throws {
    let translations = try Translations(templatesDirectory: Self.templates)
    func failure(_ json: String) throws -> ImportFailure {
      try #require(
        #expect(throws: ImportFailure.self) { try JSONImport.lists(from: Array(json.utf8)) })
    }
    /// The ASCII words of `text` but `allowed` (names, formats, the file's members).
    func english(_ text: String, allowing allowed: Set<String>) -> [String] {
      text.split { !($0.isASCII && $0.isLetter) }.map(String.init).filter { !allowed.contains($0) }
    }
    let syntax = try failure("{\"a\": }")
    #expect(translations[.english].text(syntax.phrase) == syntax.message)
    #expect(
      translations[.russian].text(syntax.phrase)
        == "Этот файл — не правильный JSON: ожидалось значение, а не “}” (строка 1, столбец 7).")
    #expect(
      translations[.german].text(syntax.phrase)
        == "Diese Datei ist kein gültiges JSON: erwartet wurde ein Wert, nicht “}” (Zeile 1, Spalte 7)."
    )
    let items = try failure(
      #"{"format": "checklists", "version": 1, "lists": [{"name": "Trip", "items": "x"}]}"#)
    #expect(
      items.message == "List 1 (“Trip”): “items” is a text in quotes; it must be an array of items."
    )
    #expect(
      translations[.russian].text(items.phrase)
        == "Список 1 («Trip»): «items» — текст в кавычках, а ожидается массив пунктов.")
    let item = try failure(
      #"{"format": "checklists", "version": 1, "lists": [{"name": "Trip", "items": [{"text": 1}]}]}"#
    )
    let russian = translations[.russian].text(item.phrase)
    #expect(russian.hasPrefix("Пункт 1 списка 1 («Trip»): «text» — число"), "\(russian)")
    #expect(english(russian, allowing: ["Trip", "text"]) == [])

    var model = DataModel()
    let refusal = try #require(
      #expect(throws: ImportRefusal.self) {
        try model.addImported([ImportedList(name: "Trip", items: [ImportedItem(text: " ")])])
      })
    #expect(translations[.english].text(refusal.phrase) == refusal.message)
    #expect(
      translations[.russian].text(refusal.phrase)
        == "Пункт 1 списка 1 («Trip»): загрузить нельзя. Введите текст.")
    for failure in [syntax, items, item] {
      let text = translations[.pseudoAccented].text(failure.phrase)
      #expect(text != failure.message && !text.contains("{{"), "\(text)")
    }
  }

  /// The script's phrases: JSON no text can end the `<script>` it is in,
  /// with the same keys in every language and Russian's three forms.
  @Test func theScriptsPhrasesAreJSONWithTheSameKeysInEveryLanguage() throws {
    #expect(ScriptPhrases.quoted("</script>\"\\\n") == #""\u003c/script>\"\\\u000a""#)
    let translations = try Translations(templatesDirectory: Self.templates)
    func island(_ language: Language) throws -> [String: Any] {
      let json = ScriptPhrases.json(translations[language])
      #expect(!json.contains("<"))
      return try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
    let english = try island(.english)
    let russian = try island(.russian)
    #expect(Set(english.keys) == Set(russian.keys))
    #expect(Set(english.keys) == Set(try island(.german).keys))
    #expect(english["listUpdated"] as? String == "List updated")
    #expect(russian["listUpdated"] as? String == "Список обновлён")
    let forms = try #require(russian["notSaved"] as? [String: String])
    #expect(Set(forms.keys) == ["one", "few", "many"])
    #expect(forms.values.allSatisfy { $0.contains("{{count}}") })
  }

  /// Each language's phrases are a script of their own, whose address is
  /// versioned by its bytes: a page links its language's, and a changed
  /// translation is a new address (a browser keeps the file a year).
  @Test func theScriptsPhrasesAreAFileVersionedByItsBytes() throws {
    let translations = try Translations(templatesDirectory: Self.templates)
    let russian = translations[.russian]
    #expect(
      ScriptPhrases.script(russian)
        == "self.checklistsLanguagePhrases = \(ScriptPhrases.json(russian));\n")
    let path = ScriptPhrases.path(russian)
    #expect(path.wholeMatch(of: /\/phrases\.ru\.js\?v=[0-9a-f]{12}/) != nil, "\(path)")
    let paths = Set(Language.allCases.map { ScriptPhrases.path(translations[$0]) })
    #expect(paths.count == Language.allCases.count)
    let assets = try Assets(publicDirectory: BuiltTool.packageRoot + "/Public")
    let page = try PageRenderer(translations: translations, assets: assets)
      .render("about", title: "About", context: .object(TemplateObject([:])), language: .russian)
    let html = String(decoding: page, as: UTF8.self)
    #expect(html.contains("<script src=\"\(path)\" defer></script>"))
    #expect(!html.contains("checklistsLanguagePhrases") && !html.contains("listUpdated"))
  }
}

/// A phrase's `{{name}}`s filled in with their values (`Catalogue.fill`).
@Suite struct CatalogueFillTests {
  @Test func aPhraseIsFilledInOnePass() {
    #expect(Catalogue.fill("{{count}} items left", [("count", "3")]) == "3 items left")
    #expect(
      Catalogue.fill("{{a}} and {{b}}, {{a}} again", [("a", "x"), ("b", "y")])
        == "x and y, x again")
    // A value is never filled in again, and names not given stay as written.
    #expect(
      Catalogue.fill("Edit {{text}} ({{other}})", [("text", "{{text}} {{count}}"), ("count", "2")])
        == "Edit {{text}} {{count}} ({{other}})")
    #expect(Catalogue.fill("{{text", [("text", "x")]) == "{{text")
    #expect(Catalogue.fill("{ {{text}}}", [("text", "ü")]) == "{ ü}")
    #expect(Catalogue.fill("Über {{n}} €", [("n", "5")]) == "Über 5 €")
    #expect(Catalogue.fill("no names", []) == "no names")
  }
}
