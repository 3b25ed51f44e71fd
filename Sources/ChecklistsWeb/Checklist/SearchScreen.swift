import ChecklistsModel
import FastCGI
import HTMLTemplates

/// `GET /search?q=…`: every item of the owner's lists and of Recently
/// Deleted whose text or note holds the words, case and accents aside
/// (`SearchIndex`), each result linking to its list and item, the matches
/// marked. A plain `GET` form: no script needed. Only the owner's browsers
/// reach it: a share link's holder has no route to it, so cannot read the
/// owner's other lists through it.
enum SearchScreen {
  static let template = "search"
  static let title = translatable("Search")
  /// Results shown; past it the page says how many more there are.
  static let shownResults = 200
  /// The longest query read, in characters: a text is at most this long.
  static let maximumQueryLength = Limits.maximumTextLength

  static func show(_ context: ScreenContext) throws -> Response {
    let form = try? FormDecoder.decode(Array(context.request.query.utf8))
    let raw = form?["q"] ?? ""
    let query = String(raw.prefix(maximumQueryLength)).trimmingCharacters(
      in: .whitespacesAndNewlines)
    var values: [String: TemplateValue] = ["query": .string(query)]
    if !query.isEmpty {
      let index = try context.services.searchIndexes.index(
        of: context.session.directory, store: context.services.store, shown: context.model)
      let (matches, total) = index.search(query, limit: shownResults)
      var folding = SearchFolding()
      let needle = folding.fold(query)
      values["searched"] = true
      values["results"] = .list(
        matches.map { result($0, needle: needle, folding: &folding) })
      values["summary"] = .string(
        summary(total: total, shown: matches.count, catalogue: context.catalogue))
    }
    return try context.page(
      template, title: context.catalogue.text(title), .object(TemplateObject(values)))
  }

  static func summary(
    total: Int, shown: Int, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String {
    switch total {
    case 0: catalogue.text(translatable("Nothing found."))
    case _ where shown < total:
      catalogue.text(
        translatable(
          one: "{{count}} found; the first {{shown}} are shown.",
          other: "{{count}} found; the first {{shown}} are shown."),
        count: total, [("shown", String(shown))])
    default:
      catalogue.text(translatable(one: "{{count}} found.", other: "{{count}} found."), count: total)
    }
  }

  /// A result's values: where it leads, its text and note in marked runs.
  static func result(_ entry: SearchIndex.Entry, needle: [UInt8], folding: inout SearchFolding)
    -> TemplateValue
  {
    func runs(_ text: String) -> TemplateValue {
      .list(
        folding.highlighted(text, needle: needle).map { run in
          ["text": .string(run.0), "marked": .bool(run.1)]
        })
    }
    var values: [String: TemplateValue] = [
      "listName": .string(entry.listName),
      "text": runs(entry.text),
    ]
    if !entry.notes.isEmpty {
      values["hasNotes"] = true
      values["notes"] = runs(entry.notes)
    }
    switch entry.place {
    case .list(let listID, let itemID):
      values["listHref"] = .string("/lists/\(listID)")
      values["href"] = .string("/lists/\(listID)/items/\(itemID)/edit")
    case .listName(let listID):
      values["listHref"] = .string("/lists/\(listID)")
      values["href"] = .string("/lists/\(listID)")
      values["isList"] = true
    case .deleted:
      values["href"] = .string("/deleted")
      values["deleted"] = true
    }
    return .object(TemplateObject(values))
  }
}
