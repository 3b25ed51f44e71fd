import ChecklistsModel
import Foundation
import TestSupport

/// Models and files the interchange tests share.
enum Fixtures {
  /// 2025-03-01T12:00:00Z: the moment of the documented example.
  static let exportedAt = Date(timeIntervalSince1970: 1_740_830_400)

  static func date(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text)!
  }

  /// Texts that must survive a file untouched: quotes, backslashes, what
  /// JSON and JavaScript treat apart, emoji, right-to-left script,
  /// combining marks, markup and JSON look-alikes.
  static let hostileTexts = [
    #"Quote " and backslash \ and both \""#,
    "Line separator \u{2028} and paragraph separator \u{2029}",
    "Emoji 👩‍👩‍👧‍👦 🇩🇪 👍🏽 and a lone regional indicator 🇦",
    "</script><script>alert(1)</script> & <b>bold</b>",
    #"{"format": "checklists", "lists": [1, 2]} \u0000 \n"#,
    "Zero width \u{200B}joiner\u{200D}, byte order mark \u{FEFF}, BIDI \u{202E}override",
    "Cafe\u{301} and Ǆ and ß and İ",
    "مرحبا بالعالم and עברית",
    "Slash / and tab-free, commas, semicolons; colons:",
    String(repeating: "é", count: 1_000),
  ]

  /// Lists with every field set: icons, both sorts, checked and unchecked
  /// items, due dates with and without reminders, a moved item, hostile
  /// texts, an empty list, two lists of the same name, and a deletion
  /// (Recently deleted is not exported).
  static func model() throws -> DataModel {
    var model = DataModel()
    let groceries = try model.addList(name: "Groceries", icon: .groceries)
    let milk = try model.addItem(text: "Milk", toList: groceries)
    let eggs = try model.addItem(text: "Eggs", toList: groceries)
    try model.toggleItem(id: eggs, inList: groceries)
    let cake = try model.addItem(text: "Order the cake", toList: groceries)
    try model.editItem(
      id: cake, inList: groceries, text: "Order the cake",
      dueDate: date("2025-03-01T17:00:00Z"), shouldRemind: true)
    try model.moveItem(id: cake, inList: groceries, to: .before(itemID: milk))
    let gone = try model.addItem(text: "Deleted, not exported", toList: groceries)
    try model.deleteItem(id: gone, inList: groceries, at: exportedAt)

    let trips = try model.addList(name: "Trips", icon: .trips)
    try model.setSort(.dueDate, ofList: trips)
    for (index, text) in hostileTexts.enumerated() {
      let id = try model.addItem(text: text, toList: trips)
      let due: Date? = index % 3 == 0 ? nil : date("2030-01-01T00:00:00Z") + Double(index) * 3_601
      try model.editItem(
        id: id, inList: trips, text: text, dueDate: due, shouldRemind: index % 2 == 0)
      if index % 4 == 1 { try model.toggleItem(id: id, inList: trips) }
    }
    let edges = try model.addList(name: "Edges of time, and; more", icon: .none)
    for (text, due) in [
      ("The first second", DueDate.range.lowerBound), ("The last second", DueDate.range.upperBound),
    ] {
      let id = try model.addItem(text: text, toList: edges)
      try model.editItem(id: id, inList: edges, text: text, dueDate: due, shouldRemind: true)
    }
    try model.addList(name: "Empty", icon: .inbox)
    try model.addList(name: "Groceries", icon: .drinks)
    let hostileName = try model.addList(name: hostileTexts[0], icon: .chores)
    try model.addItem(text: "in a list with a hostile name", toList: hostileName)
    let deleted = try model.addList(name: "Deleted list", icon: .photos)
    try model.addItem(text: "Gone with its list", toList: deleted)
    try model.deleteList(id: deleted, at: exportedAt)
    return model
  }

  /// The model of the documented example (`docs/export-format.md`).
  static func documentedModel() throws -> DataModel {
    var model = DataModel()
    let groceries = try model.addList(name: "Groceries", icon: .groceries)
    let trips = try model.addList(name: "Trips", icon: .trips)
    try model.addList(name: "Ideas", icon: .inbox)
    try model.addItem(text: "Milk", toList: groceries)
    let eggs = try model.addItem(text: #"Eggs, "free range""#, toList: groceries)
    try model.toggleItem(id: eggs, inList: groceries)
    let cake = try model.addItem(text: "Order the cake", toList: groceries)
    try model.editItem(
      id: cake, inList: groceries, text: "Order the cake",
      dueDate: date("2025-03-01T17:00:00Z"), shouldRemind: true)
    try model.addItem(text: "Pack", toList: trips)
    let train = try model.addItem(text: "Book the train", toList: trips)
    try model.editItem(
      id: train, inList: trips, text: "Book the train", dueDate: date("2025-04-10T08:30:00Z"),
      shouldRemind: false)
    try model.setSort(.dueDate, ofList: trips)
    return model
  }

  /// The lists of `model` as an import reads them (ids aside).
  static func imported(_ model: DataModel) -> [ImportedList] {
    model.lists.map { list in
      ImportedList(
        name: list.name, icon: list.icon, sort: list.sort,
        items: list.items.map {
          ImportedItem(
            text: $0.text, checked: $0.checked, dueDate: $0.dueDate, shouldRemind: $0.shouldRemind,
            notes: $0.notes)
        })
    }
  }

  /// The code blocks of `docs/export-format.md` marked `json`.
  static func documentedJSON() throws -> [String] {
    let text = try String(
      contentsOfFile: BuiltTool.packageRoot + "/docs/export-format.md", encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```json" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  static var schemaPath: String { BuiltTool.packageRoot + "/docs/checklists-export.schema.json" }
}
