import Foundation

/// A named list of items.
package struct Checklist: Sendable, Equatable {
  /// Stable within the visitor's data and never reused, even after deletion.
  package let id: Int
  /// Cleaned name (see `TextInput.clean`); two lists may share a name.
  package var name: String
  /// The icon shown beside the name.
  package var icon: ChecklistIcon
  /// The items, in the visitor's own order (new ones last).
  package var items: [ChecklistItem]
  /// How the list is shown: in the visitor's own order, or by due date.
  package var sort: ItemSort
  /// Its recent changes as calendar apps sync them (see `ChangeLog`).
  package var changes: ChangeLog
  /// What calendar apps set on its collection that it has no field for.
  package var properties: [CollectionProperty]
  /// The name a calendar app gave its collection when it made the list
  /// (`MKCALENDAR`), by which apps address it besides its id; nil for a
  /// list made on the web (see `CalendarName`).
  package var calendarName: String?
  /// When the list unchecks every item by itself, and what that rule has
  /// done (see `ScheduledReset`); nil: never.
  package var reset: ScheduledReset?

  package init(
    id: Int, name: String, icon: ChecklistIcon = .newList, items: [ChecklistItem] = [],
    sort: ItemSort = .own
  ) {
    self.id = id
    self.name = name
    self.icon = icon
    self.items = items
    self.sort = sort
    self.changes = ChangeLog()
    self.properties = []
    self.calendarName = nil
    self.reset = nil
  }

  /// Two lists are equal when they hold the same: the change log records
  /// how a list came to be, and a store compares models to tell whether a
  /// change changed anything before it records it.
  package static func == (lhs: Checklist, rhs: Checklist) -> Bool {
    lhs.id == rhs.id && lhs.name == rhs.name && lhs.icon == rhs.icon && lhs.items == rhs.items
      && lhs.sort == rhs.sort && lhs.properties == rhs.properties
      && lhs.calendarName == rhs.calendarName && lhs.reset == rhs.reset
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

  /// The items as the screen shows them: in the list's `sort` (by due date,
  /// undated last, ties in the own order), then, when `checkedLast`, the
  /// unchecked before the checked (each keeping that order).
  package func displayedItems(checkedLast: Bool) -> [ChecklistItem] {
    var shown = items
    if sort == .dueDate {
      let positions = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, $0) })
      shown.sort { a, b in
        switch (a.dueDate, b.dueDate) {
        case (let x?, let y?) where x != y: x < y
        case (.some, nil): true
        case (nil, .some): false
        default: positions[a.id]! < positions[b.id]!
        }
      }
    }
    if checkedLast {
      shown = shown.filter { !$0.checked } + shown.filter(\.checked)
    }
    return shown
  }
}

/// The order a list is shown in; remembered per list.
package enum ItemSort: String, Sendable, Equatable, Codable, CaseIterable {
  /// The order the visitor gave the items (Move up / Move down).
  case own
  /// By due date, earliest first; items without one last.
  case dueDate
}

extension Checklist: Codable {
  enum CodingKeys: String, CodingKey {
    case id, name, icon, items, sort, changes, properties, calendarName
    case reset, lastReset, allCheckedAt
  }

  /// Version 1 files have no `sort`: such a list is in its own order. A
  /// list no calendar app has seen change has no `changes`, one made on the
  /// web no `calendarName` (one that is not a `CalendarName` reads as none:
  /// the list is then reached by its id alone).
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    icon = try container.decode(ChecklistIcon.self, forKey: .icon)
    items = try container.decode([ChecklistItem].self, forKey: .items)
    sort = try container.decodeIfPresent(ItemSort.self, forKey: .sort) ?? .own
    changes = try container.decodeIfPresent(ChangeLog.self, forKey: .changes) ?? ChangeLog()
    properties =
      try container.decodeIfPresent([CollectionProperty].self, forKey: .properties) ?? []
    calendarName = try container.decodeIfPresent(String.self, forKey: .calendarName).flatMap {
      CalendarName.isValid($0) ? $0 : nil
    }
    // A rule this code cannot read is refused with the file (never dropped).
    reset = try container.decodeIfPresent(ResetRuleCoding.self, forKey: .reset).map {
      ScheduledReset(
        rule: try $0.rule(),
        lastReset: try container.decodeIfPresent(Date.self, forKey: .lastReset),
        allCheckedAt: try container.decodeIfPresent(Date.self, forKey: .allCheckedAt))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(calendarName, forKey: .calendarName)
    if !changes.isEmpty { try container.encode(changes, forKey: .changes) }
    try container.encodeIfPresent(reset?.allCheckedAt, forKey: .allCheckedAt)
    try container.encode(icon, forKey: .icon)
    try container.encode(id, forKey: .id)
    try container.encode(items, forKey: .items)
    try container.encodeIfPresent(reset?.lastReset, forKey: .lastReset)
    try container.encode(name, forKey: .name)
    if !properties.isEmpty { try container.encode(properties, forKey: .properties) }
    try container.encodeIfPresent(reset.map { ResetRuleCoding($0.rule) }, forKey: .reset)
    try container.encode(sort, forKey: .sort)
  }
}
