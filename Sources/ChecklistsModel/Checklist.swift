/// A named list of items.
public struct Checklist: Sendable, Equatable, Codable {
  /// Stable within the visitor's data and never reused, even after deletion.
  public let id: Int
  /// Cleaned name (see `TextInput.clean`); two lists may share a name.
  public var name: String
  /// The icon shown beside the name.
  public var icon: ChecklistIcon
  /// The items, in the order they were added.
  public var items: [ChecklistItem]

  public init(id: Int, name: String, icon: ChecklistIcon = .newList, items: [ChecklistItem] = []) {
    self.id = id
    self.name = name
    self.icon = icon
    self.items = items
  }

  /// How many items are not checked yet.
  public var uncheckedCount: Int {
    items.reduce(0) { $1.checked ? $0 : $0 + 1 }
  }

  /// The line under the name on All Lists: "(No Items)", "All Done!" or "N Remaining".
  public var subtitle: String {
    if items.isEmpty { return "(No Items)" }
    let unchecked = uncheckedCount
    return unchecked == 0 ? "All Done!" : "\(unchecked) Remaining"
  }

  /// The item with this id, if the list has it.
  public func item(id: Int) -> ChecklistItem? {
    items.first { $0.id == id }
  }

  func index(ofItem id: Int) -> Int? {
    items.firstIndex { $0.id == id }
  }
}
