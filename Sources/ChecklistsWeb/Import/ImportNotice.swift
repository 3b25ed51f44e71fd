/// The notice on All Lists after an import's Confirm: "Imported 3 lists
/// with 42 items." The Confirm's `303` names the counts in the query
/// (`/lists?imported=3&items=42`), so nothing is stored for it, and a page
/// with a query is never kept by `ResponseMemo`.
enum ImportNotice {
  /// Where a Confirm that added `lists` lists with `items` items leads.
  static func location(lists: Int, items: Int) -> String {
    "/lists?imported=\(lists)&items=\(items)"
  }

  /// The sentence `query` names; nil for any other query.
  static func message(
    query: String, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String? {
    guard !query.isEmpty else { return nil }
    var lists: Int?
    var items: Int?
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "imported": lists = count(parts[1])
      case "items": items = count(parts[1])
      default: continue
      }
    }
    guard let lists, let items, lists > 0 else { return nil }
    return catalogue.text(
      translatable("Imported {{summary}}."),
      [("summary", ImportPreview.summary(lists: lists, items: items, catalogue: catalogue))])
  }

  /// A count of 0 (no id is) or an id's digits.
  private static func count(_ text: Substring) -> Int? {
    text == "0" ? 0 : RoutePattern.identifier(text.utf8)
  }
}
