import ChecklistsModel
import Foundation
import Interchange

// The export and import of a 5,000-item list (the most a list holds), in
// milliseconds: the JSON export against Foundation's JSONEncoder (what it
// replaced), the JSON import against JSONDecoder, and the to-do export.
// Goals: export ≤ 20 ms, import ≤ 100 ms (the whole upload, of which the
// parse is the part here, plus DataModel.addImported).
// `bench-web --interchange-only` runs these alone (what `make bench` prints).

/// The same document as Codable values, for Foundation's coders.
private struct CodableExport: Codable {
  struct List: Codable {
    var id: Int
    var name: String
    var icon: String
    var sort: String
    var items: [Item]
  }
  struct Item: Codable {
    var id: Int
    var text: String
    var checked: Bool
    var dueDate: Date?
    var shouldRemind: Bool
  }
  var format = "checklists"
  var version = 1
  var exportedAt: Date
  var lists: [List]

  init(_ model: DataModel, exportedAt: Date) {
    self.exportedAt = exportedAt
    lists = model.lists.map { list in
      List(
        id: list.id, name: list.name, icon: list.icon.rawValue, sort: list.sort.rawValue,
        items: list.items.map {
          Item(
            id: $0.id, text: $0.text, checked: $0.checked, dueDate: $0.dueDate,
            shouldRemind: $0.shouldRemind)
        })
    }
  }
}

@MainActor
func benchmarkInterchange() throws {
  if profiling { return }
  var model = DataModel()
  let list = try model.addList(name: "Everything to pack", icon: .trips)
  let start = Date(timeIntervalSince1970: 1_740_000_000)
  for number in 0..<Limits.maximumItemsPerList {
    let text = "Item \(number): call the garage, ask about the “tyres”; then book"
    let id = try model.addItem(text: text, toList: list)
    if number % 2 == 0 {
      try model.editItem(
        id: id, inList: list, text: text, dueDate: start + Double(number) * 3_600,
        shouldRemind: number % 4 == 0)
    }
    if number % 3 == 0 { try model.toggleItem(id: id, inList: list) }
  }
  let exportedAt = Date()
  func milliseconds(_ nanoseconds: Double) -> String {
    String(format: "%.1f ms", nanoseconds / 1_000_000)
  }
  /// Wall time (what the goal is) and the thread's CPU time (what the work
  /// costs, steadier on a shared machine).
  func both(_ iterations: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    (measure(iterations, body), measureCPU(iterations, body))
  }
  func verdict(_ nanoseconds: Double, goal milliseconds: Double) -> String {
    nanoseconds <= milliseconds * 1_000_000 ? "ok" : "OVER GOAL"
  }

  let exported = JSONExport.document(model, exportedAt: exportedAt)
  let ours = both(20) { sink &+= JSONExport.document(model, exportedAt: exportedAt).count }
  let codable = CodableExport(model, exportedAt: exportedAt)
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.dateEncodingStrategy = .iso8601
  let compactBytes = try encoder.encode(codable).count
  let foundation = both(10) { sink &+= (try? encoder.encode(codable).count) ?? 0 }
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
  let indented = both(10) { sink &+= (try? encoder.encode(codable).count) ?? 0 }
  func figures(_ time: (wall: Double, cpu: Double)) -> String {
    "\(milliseconds(time.wall)) (CPU \(milliseconds(time.cpu)))"
  }
  print(
    "JSON export of 5,000 items: JSONExport.document \(figures(ours)), \(exported.count) bytes "
      + "(goal ≤ 20 ms) \(verdict(ours.wall, goal: 20))")
  print(
    "  (Foundation's JSONEncoder, the same document with sorted keys and ISO 8601 dates: "
      + "\(figures(foundation)) compact, \(compactBytes) bytes; \(figures(indented)) indented)"
  )

  let readBack = try JSONImport.lists(from: exported)
  precondition(readBack.first?.items.count == 5_000)
  let parse = both(20) { sink &+= (try? JSONImport.lists(from: exported).count) ?? 0 }
  let decoder = JSONDecoder()
  decoder.dateDecodingStrategy = .iso8601
  let exportedData = Data(exported)
  let foundationParse = both(10) {
    sink &+= (try? decoder.decode(CodableExport.self, from: exportedData).lists.count) ?? 0
  }
  let addImported = both(20) {
    var target = DataModel.firstRun()
    let lists = try! JSONImport.lists(from: exported)
    sink &+= (try? target.addImported(lists).count) ?? 0
  }
  print(
    "JSON import of 5,000 items: JSONImport.lists \(figures(parse)), with DataModel.addImported "
      + "\(figures(addImported)) (goal ≤ 100 ms) \(verdict(addImported.wall, goal: 100))")
  print("  (Foundation's JSONDecoder, the same document: \(figures(foundationParse)))")

  let calendar = both(20) {
    sink &+=
      CalendarExport.document(
        model, visitorKey: String(repeating: "ab", count: 32), exportedAt: exportedAt
      )
      .count
  }
  print("iCalendar export of 5,000 items: CalendarExport.document \(figures(calendar))")
}
