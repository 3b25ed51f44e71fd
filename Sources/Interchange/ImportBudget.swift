import ChecklistsModel

/// What the lists read from a file would take in the stored `Checklists.plist`, counted
/// while the file is read, so that a file whose lists could never be kept is refused as
/// soon as it shows it, before more is built.
///
/// Why count while reading rather than measure the file: a file's size says little of what
/// it stores. A binary property list names an object by number, so 6 KB named one item of
/// 1,000 `&` 50,000 times (10 lists of the same 5,000), and the stored XML writes each `&`
/// as `&amp;`: 257 MB, which the size check encoded whole before refusing it (3.2 s and
/// +491 MB of backend RSS for one upload, issue 24). Here every list and item is charged
/// each time the file names it, a shared one included, its texts after XML escaping.
///
/// The figures are the bytes `ChecklistsXMLWriter` (Storage) writes for a list and an item
/// in the `lists` array, with ids of one digit and every item counted as checked, as
/// `StoredSize` counts it: never more than what adding them would store, so a file this
/// passes may still be refused by the exact check that follows (beside the owner's own
/// lists), but a file refused here could never have been kept. `ImportBudgetTests` in
/// ChecklistsWebTests hold them to the writer's output.
package struct ImportBudget: Sendable {
  /// The most the lists of one file may take: all that one visitor's checklists may.
  package static let maximumBytes = Limits.maximumStoredBytes

  /// The bytes charged so far; never above `maximumBytes`.
  package private(set) var bytes = 0
  /// The lists charged so far.
  package private(set) var lists = 0
  /// The items charged so far, shared ones each time they were named.
  package private(set) var items = 0
  /// The items of the last list charged.
  private var itemsInList = 0

  package init() {}

  /// Charges a list, before its items.
  ///
  /// - Throws: the refusal, when the cap would be passed.
  package mutating func chargeList(name: String, icon: ChecklistIcon, sort: ItemSort = .own)
    throws(ImportFailure)
  {
    let cost =
      Self.emptyList + Self.escapedCount(name) + icon.rawValue.utf8.count
      + sort.rawValue.utf8.count
    try charge(cost, list: lists + 1, item: nil)
    lists += 1
    itemsInList = 0
  }

  /// Charges an item of the last list charged.
  ///
  /// - Throws: the refusal, when the cap would be passed.
  package mutating func chargeItem(_ item: ImportedItem) throws(ImportFailure) {
    var cost = Self.item + Self.escapedCount(item.text)
    if item.dueDate != nil { cost += Self.dueDate }
    if item.shouldRemind { cost += Self.shouldRemind }
    // The note as the file has it: cleaning only ever shortens it.
    if !item.notes.isEmpty { cost += Self.notes + Self.escapedCount(item.notes) }
    // A note's key and string cost what a rule's do (their keys differ by
    // five letters).
    if let rule = item.recurrence { cost += Self.notes + 5 + Self.escapedCount(rule) }
    // The list's `<array/>` becomes `<array>` … `</array>` with its first item.
    if itemsInList == 0 { cost += Self.firstItem }
    try charge(cost, list: lists, item: itemsInList + 1)
    items += 1
    itemsInList += 1
  }

  /// Adds `cost`, charged for list `list` (1-based) or its item `item`.
  private mutating func charge(_ cost: Int, list: Int, item: Int?) throws(ImportFailure) {
    guard cost <= Self.maximumBytes - bytes else {
      let place =
        item.map {
          ImportPhrase(
            translatable("list {{listPosition}}, item {{itemPosition}}"),
            ["listPosition": .number(list), "itemPosition": .number($0)])
        } ?? ImportPhrase(translatable("list {{listPosition}}"), ["listPosition": .number(list)])
      throw ImportFailure(
        translatable(
          "Read as far as {{place}}, this file’s lists would take more than {{megabytes}} MB once stored, more than anyone’s checklists can keep ({{megabytes}} MB in all)."
        ), ["place": .phrase(place), "megabytes": .number(Self.maximumBytes >> 20)])
    }
    bytes += cost
  }

  /// The bytes of `text` in XML: `&` as `&amp;`, `<` and `>` as `&lt;` and `&gt;`.
  package static func escapedCount(_ text: String) -> Int {
    var count = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): count += 5
      case UInt8(ascii: "<"), UInt8(ascii: ">"): count += 4
      default: count += 1
      }
    }
    return count
  }

  // The writer's bytes around the texts (tabs, keys, tags, line breaks).

  /// A list with no items, its name, icon and sort aside: its `<dict>` two tabs deep,
  /// `icon`, `id` (one digit), `items` (`<array/>`), `name` and `sort`.
  static let emptyList = 212
  /// What a list's first item adds besides itself: `<array>` and `</array>` for `<array/>`.
  static let firstItem = 11
  /// An item, its text aside: its `<dict>` four tabs deep, `checked` (`<true/>`), `id`
  /// (one digit) and `text`.
  static let item = 149
  /// An item's `dueDate` key and `<date>`.
  static let dueDate = 63
  /// An item's `shouldRemind` key and `<true/>`.
  static let shouldRemind = 42
  /// An item's `notes` key and its `<string>`, the note aside.
  static let notes = 45
}
