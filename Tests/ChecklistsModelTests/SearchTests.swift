import ChecklistsModel
import Foundation
import Testing

/// Search folds case, accents and width in any script, looks through
/// texts, notes and names of the lists and of Recently Deleted, and marks
/// whole characters.
@Suite struct SearchTests {
  @Test(arguments: [
    ("MILK", "Oat milk"), ("creme", "Crème fraîche"), ("CRÈME", "creme"), ("ёлка", "ЕЛКА"),
    ("елка", "Ёлка на Новый год"), ("strasse", "Hauptstraße"), ("ａｂｃ", "ABC"),
    ("cafe", "Cafe\u{301} au lait"), ("ÜBER", "uberweisung"),
  ])
  func aQueryFindsItsTextWhateverTheCaseAndAccents(query: String, text: String) {
    var folding = SearchFolding()
    #expect(SearchFolding.firstRange(of: folding.fold(query), in: folding.fold(text)) != nil)
  }

  @Test(arguments: [("milk", "mil"), ("ёлка", "елки"), ("abc", "ab c")])
  func aQueryDoesNotFindWhatIsNotThere(query: String, text: String) {
    var folding = SearchFolding()
    #expect(SearchFolding.firstRange(of: folding.fold(query), in: folding.fold(text)) == nil)
  }

  @Test func matchesAreMarkedByWholeCharacters() {
    var folding = SearchFolding()
    let cyrillic = folding.highlighted("Ёлка и ёлки", needle: folding.fold("ЕЛК"))
    #expect(cyrillic.filter(\.1).map(\.0) == ["Ёлк", "ёлк"])
    let accented = folding.highlighted("a Crème b", needle: folding.fold("creme"))
    #expect(
      accented.map(\.0) == ["a ", "Crème", " b"] && accented.map(\.1) == [false, true, false])
    let decomposed = folding.highlighted("Cafe\u{301}!", needle: folding.fold("cafe"))
    #expect(decomposed.map(\.0) == ["Cafe\u{301}", "!"] && decomposed[0].1)
  }

  @Test func theIndexLooksThroughListsNotesNamesAndRecentlyDeleted() throws {
    var model = DataModel()
    let home = try model.addList(name: "Дом", icon: .none)
    let milk = try model.addItem(text: "Milk", toList: home)
    let boiler = try model.addItem(text: "Boiler", toList: home)
    try model.editItem(
      id: boiler, inList: home, text: "Boiler", dueDate: nil, shouldRemind: false,
      notes: "Code: Молоко-42")
    let gone = try model.addItem(text: "Lait écrémé", toList: home)
    let deletion = try model.deleteItem(id: gone, inList: home, at: Date(timeIntervalSince1970: 0))
    let index = SearchIndex(model)
    let places = index.search("МОЛОКО", limit: 10).matches.map(\.place)
    #expect(places == [.list(listID: home, itemID: boiler)])
    #expect(
      index.search("LAIT ECREME", limit: 10).matches.map(\.place) == [
        .deleted(deletionID: deletion, itemID: gone)
      ])
    #expect(index.search("дом", limit: 10).matches.map(\.place) == [.listName(listID: home)])
    #expect(
      index.search("milk", limit: 10).matches.map(\.place) == [
        .list(listID: home, itemID: milk)
      ])
    #expect(index.search("   ", limit: 10).total == 0)
    // A template is no list: search does not show it.
    _ = try model.saveAsTemplate(listID: home)
    #expect(SearchIndex(model).search("boiler", limit: 10).total == 1)
  }

  @Test func theLimitBoundsTheResultsNotTheCount() throws {
    var model = DataModel()
    let list = try model.addList(name: "L", icon: .none)
    for number in 0..<30 { try model.addItem(text: "item \(number)", toList: list) }
    let (matches, total) = SearchIndex(model).search("ITEM", limit: 5)
    #expect(matches.count == 5 && total == 30)
  }
}
