/// A named list of items.
package struct Checklist: Sendable, Equatable, Codable {
  /// Stable within the visitor's data and never reused, even after deletion.
  package let id: Int
  /// Cleaned name (see `TextInput.clean`); two lists may share a name.
  package var name: String
  /// The icon shown beside the name.
  package var icon: ChecklistIcon
  /// The items, in the order they were added.
  package var items: [ChecklistItem]

  package init(id: Int, name: String, icon: ChecklistIcon = .newList, items: [ChecklistItem] = []) {
    self.id = id
    self.name = name
    self.icon = icon
    self.items = items
  }

  /// How many items are not checked yet.
  package var uncheckedCount: Int {
    items.reduce(0) { $1.checked ? $0 : $0 + 1 }
  }

  /// The line under the name on All Lists: "(No Items)", "All Done!" or "N Remaining".
  package var subtitle: String {
    if items.isEmpty { return "(No Items)" }
    let unchecked = uncheckedCount
    return unchecked == 0 ? "All Done!" : "\(unchecked) Remaining"
  }

  /// The item with this id, if the list has it.
  package func item(id: Int) -> ChecklistItem? {
    items.first { $0.id == id }
  }

  func index(ofItem id: Int) -> Int? {
    items.firstIndex { $0.id == id }
  }
}
