import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Random sequences of changes applied both through the store and to a
/// deliberately naive reference; the two must agree after every step, and
/// so must a fresh store that reads the file from disk. Stops at the first
/// step where they disagree (`#require`).
@Suite struct StorePropertyTests {
  /// The reference: plain arrays, sorted only when compared.
  struct Reference {
    struct Item: Equatable {
      var id: Int
      var text: String
      var checked: Bool
    }
    struct List {
      var id: Int
      var name: String
      var icon: ChecklistIcon
      var items: [Item]
    }
    var lists: [List] = []
    var nextList = 1
    var nextItem = 1

    var inDisplayOrder: [List] {
      lists.sorted { a, b in
        let order = a.name.compare(
          b.name, options: [.caseInsensitive, .numeric], range: nil, locale: .current)
        return order == .orderedSame ? a.id < b.id : order == .orderedAscending
      }
    }
  }

  let names = [
    "Groceries", "groceries", "Trips", "a", "B", "b 2", "b 10", "Ünterwegs", "  padded  ", "",
    " \n ",
  ]
  let texts = ["Milk", "eggs", "x", "  spaced ", "multi\nline", "", "\t", "Ça va", "<b>&amp;</b>"]

  @Test func randomChangesAgreeWithReferenceAndDisk() throws {
    let temporary = TemporaryDirectory("store-property")
    let data = temporary.path
    let store = makeStore(data)
    let visitor = VisitorDirectory(
      dataDirectory: data, visitorID: "0123456789abcdef0123456789abcdef")
    var reference = Reference()
    var random = SeededGenerator(seed: 20_261_122)

    for step in 0..<2_000 {
      let refused = try applyRandomChange(
        &reference, store: store, visitor: visitor, random: &random)
      let fromCache = try store.load(visitor) ?? DataModel()
      try requireAgree(fromCache, reference, "step \(step) (cached)\(refused ? ", refused" : "")")
      let fromDisk = try makeStore(data).load(visitor) ?? DataModel()
      try #require(fromDisk == fromCache, "step \(step) (reloaded from disk)")
    }
  }

  /// Applies one random change to both; returns whether it was refused.
  private func applyRandomChange(
    _ reference: inout Reference, store: ChecklistStore, visitor: VisitorDirectory,
    random: inout SeededGenerator
  ) throws -> Bool {
    let lists = reference.lists
    let listIndex = lists.isEmpty ? nil : Int.random(in: 0..<lists.count, using: &random)
    // Sometimes a stale id, which both must refuse.
    let listID =
      Int.random(in: 0..<10, using: &random) == 0 ? 9_999 : listIndex.map { lists[$0].id } ?? 9_999
    let items = listIndex.map { lists[$0].items } ?? []
    let itemID =
      items.isEmpty || Int.random(in: 0..<10, using: &random) == 0
      ? 8_888 : items[Int.random(in: 0..<items.count, using: &random)].id
    let name = names.randomElement(using: &random)!
    let text = texts.randomElement(using: &random)!
    let icon = ChecklistIcon.allCases.randomElement(using: &random)!
    let cleanName = cleaned(name)
    let cleanText = cleaned(text)
    let refIndex = reference.lists.firstIndex { $0.id == listID }
    let refItem = refIndex.flatMap { l in reference.lists[l].items.firstIndex { $0.id == itemID } }

    var expectSuccess: Bool
    var mutate: (inout DataModel) throws -> Void
    // Weighted: more adds than deletes so that lists grow.
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<15:
      expectSuccess = cleanName != nil
      mutate = { try $0.addList(name: name, icon: icon) }
      if let cleanName {
        reference.lists.append(
          .init(id: reference.nextList, name: cleanName, icon: icon, items: []))
        reference.nextList += 1
      }
    case 15..<25:
      expectSuccess = cleanName != nil && refIndex != nil
      mutate = { try $0.updateList(id: listID, name: name, icon: icon) }
      if expectSuccess, let refIndex, let cleanName {
        reference.lists[refIndex].name = cleanName
        reference.lists[refIndex].icon = icon
      }
    case 25..<30:
      expectSuccess = refIndex != nil
      mutate = { try $0.deleteList(id: listID, at: Date()) }
      if let refIndex { reference.lists.remove(at: refIndex) }
    case 30..<60:
      expectSuccess = cleanText != nil && refIndex != nil
      mutate = { try $0.addItem(text: text, toList: listID) }
      if expectSuccess, let refIndex, let cleanText {
        reference.lists[refIndex].items.append(
          .init(id: reference.nextItem, text: cleanText, checked: false))
        reference.nextItem += 1
      }
    case 60..<70:
      expectSuccess = cleanText != nil && refItem != nil
      mutate = { try $0.editItem(id: itemID, inList: listID, text: text) }
      if expectSuccess, let refIndex, let refItem, let cleanText {
        reference.lists[refIndex].items[refItem].text = cleanText
      }
    case 70..<90:
      expectSuccess = refItem != nil
      mutate = { try $0.toggleItem(id: itemID, inList: listID) }
      if let refIndex, let refItem { reference.lists[refIndex].items[refItem].checked.toggle() }
    default:
      expectSuccess = refItem != nil
      mutate = { try $0.deleteItem(id: itemID, inList: listID, at: Date()) }
      if let refIndex, let refItem { reference.lists[refIndex].items.remove(at: refItem) }
    }
    do {
      try store.update(visitor, initial: storedOrEmpty, mutate)
      try #require(expectSuccess, "the store accepted a change the reference refuses")
    } catch is ChecklistsError {
      try #require(!expectSuccess, "the store refused a change the reference accepts")
    }
    return !expectSuccess
  }

  /// The reference's own cleaning rule, written independently of TextInput.
  private func cleaned(_ raw: String) -> String? {
    let joined = raw.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(
      of: "\t", with: " ")
    let trimmed = joined.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  private func requireAgree(_ model: DataModel, _ reference: Reference, _ message: String)
    throws
  {
    let expected = reference.inDisplayOrder
    try #require(model.lists.map(\.id) == expected.map(\.id), "\(message)")
    try #require(model.lists.map(\.name) == expected.map(\.name), "\(message)")
    try #require(model.lists.map(\.icon) == expected.map(\.icon), "\(message)")
    for (list, ref) in zip(model.lists, expected) {
      try #require(
        list.items.map { Reference.Item(id: $0.id, text: $0.text, checked: $0.checked) }
          == ref.items, "\(message)")
    }
  }
}
