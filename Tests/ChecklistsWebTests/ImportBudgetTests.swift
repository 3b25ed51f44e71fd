import ChecklistsModel
import Foundation
import Interchange
import Storage
import Testing

/// `ImportBudget` (Interchange) charges a list and its items what the
/// stored file (Storage's writer) gains when they are added, with ids of one
/// digit: held here, where both are seen, so that neither drifts alone.
@Suite struct ImportBudgetTests {
  /// The XML bytes of `model`, every list item counted as checked.
  static func counted(_ model: DataModel) throws -> Int {
    try ChecklistsFile.encode(model, format: .xml).count
      - model.lists.reduce(0) { $0 + $1.uncheckedCount }
  }

  @Test(arguments: [
    ImportedList(name: "Empty", icon: .inbox),
    ImportedList(
      name: "Trip <to> “Rome” & back", icon: .trips, sort: .dueDate,
      items: [
        ImportedItem(
          text: "Passport & <visa>", checked: true,
          dueDate: Date(timeIntervalSince1970: 1_900_000_000), shouldRemind: true),
        ImportedItem(text: "Tickets"),
        ImportedItem(text: "漢字 é", dueDate: Date(timeIntervalSince1970: 1_800_000_000)),
        ImportedItem(text: "&&&", shouldRemind: true),
        ImportedItem(text: "Bread", notes: "Rye, <sliced>\n& two loaves"),
      ]),
  ])
  func aListCostsWhatTheStoredFileGains(list: ImportedList) throws {
    var model = DataModel()
    _ = try model.addList(name: "Home", icon: .folder)
    let before = try Self.counted(model)
    var budget = ImportBudget()
    try budget.chargeList(name: list.name, icon: list.icon, sort: list.sort)
    for item in list.items { try budget.chargeItem(item) }
    try model.addImported([list])
    #expect(try Self.counted(model) - before == budget.bytes)
  }
}
