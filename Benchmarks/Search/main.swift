import ChecklistsModel
import Foundation

// Search over the largest owner the size cap allows (about 12,000 items,
// `Limits.maximumStoredBytes`), in-process: the time to fold the owner's
// items into a `SearchIndex`, then the time of one search over it, for
// queries in Latin, with accents and in Cyrillic. Bar: a search ≤ 5 ms.
//
// Usage: bench-search [ROUNDS]   (release: swift run -c release bench-search)

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 50 : 50
let words = [
  "milk", "Café au lait", "crème fraîche", "Молоко", "ёлка на Новый год", "Brot", "Straße",
  "Passport", "Überweisung", "zucchini", "Ёжик", "tickets", "Pâte à choux", "Счёт за свет",
]

var model = DataModel()
var items = 0
for listNumber in 0..<24 {
  let list = try model.addList(
    name: "List \(listNumber) \(words[listNumber % words.count])", icon: .folder)
  for itemNumber in 0..<500 {
    let text = "\(words[(listNumber + itemNumber) % words.count]) \(itemNumber)"
    let id = try model.addItem(text: text, toList: list)
    if itemNumber % 10 == 0 {
      try model.editItem(
        id: id, inList: list, text: text, dueDate: nil, shouldRemind: false,
        notes: "Note \(itemNumber): \(words[itemNumber % words.count])")
    }
    items += 1
  }
}

func milliseconds(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var index = SearchIndex(model)
let builds = (0..<rounds).map { _ in milliseconds { index = SearchIndex(model) } }
print("items: \(items) in \(model.lists.count) lists, index entries: \(index.entries.count)")
print(String(format: "index build: median %.2f ms, worst %.2f ms", median(builds), builds.max()!))
for query in ["MILK", "creme", "ЁЛКА", "елка", "strasse", "nothing at all"] {
  var found = 0
  let times = (0..<rounds).map { _ in milliseconds { found = index.search(query, limit: 200).total }
  }
  print(
    String(
      format: "search %@: %d found, median %.3f ms, worst %.3f ms", "“\(query)”", found,
      median(times), times.max()!))
}
