import ChecklistsModel
import Foundation

/// Reads a JSON export (`docs/export-format.md`, version 1) into the lists
/// to import: strict about what it needs, with a sentence for the visitor
/// naming the list and item when something is wrong, and never more than
/// `Limits.maximumLists` lists or `Limits.maximumItemsPerList` items a list.
///
/// Its own reader rather than Foundation's, for what the visitor reads:
/// on Linux `JSONDecoder` reports every syntax error as "The given data was
/// not valid JSON." with no place, accepts a trailing comma (`{"a": 1,}`)
/// and UTF-16 without a byte order mark, and `JSONSerialization` reads `1`
/// as `true`. Here the whole file is checked first (`JSONSyntax`: one loop,
/// at most 64 levels open, the line and column of the first error), then
/// read by offsets (`JSONCursor`), stopping at the first list or item past
/// the limits. A 5,000-item export reads in 8-9 ms of CPU (13-21 ms of
/// wall time on a shared 2-core machine under load), against 17 ms (27-38
/// ms) for `JSONDecoder` decoding the same document into `Codable` values
/// (`bench-web --interchange-only`, release).
package enum JSONImport {
  /// A cheap sniff: the first byte that is not whitespace, after an
  /// optional UTF-8 byte order mark, is `{`.
  package static func looksLike(_ bytes: [UInt8]) -> Bool {
    var index = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    JSONSyntax.skipWhitespace(bytes, &index)
    return index < bytes.count && bytes[index] == UInt8(ascii: "{")
  }

  /// The lists of a JSON export, in the file's order, with their raw names
  /// and texts (`DataModel.addImported` cleans and checks them); the ids in
  /// the file are not read, since imported lists and items get new ones.
  ///
  /// - Throws: `ImportFailure` saying what is wrong and where.
  package static func lists(from bytes: [UInt8]) throws(ImportFailure) -> [ImportedList] {
    var budget = ImportBudget()
    return try lists(from: bytes, budget: &budget)
  }

  /// `lists(from:)`, charging each list and item to `budget` as it is read.
  package static func lists(from bytes: [UInt8], budget: inout ImportBudget)
    throws(ImportFailure) -> [ImportedList]
  {
    let start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
      || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
    {
      throw ImportFailure(
        "This file is UTF-16 or UTF-32 text; a Checklists export is UTF-8 text.")
    }
    if let invalid = UTF8Check.firstInvalidOffset(in: bytes, from: start) {
      throw ImportFailure(
        "This file is not UTF-8 text: the byte at \(TextPosition(of: invalid, in: bytes, from: start).description) is not part of a UTF-8 character."
      )
    }
    var first = start
    JSONSyntax.skipWhitespace(bytes, &first)
    guard first < bytes.count else { throw ImportFailure("This file is empty.") }
    do {
      try JSONSyntax.check(bytes, from: start)
    } catch {
      throw ImportFailure(
        "This file is not valid JSON: \(error.problem) at \(TextPosition(of: error.offset, in: bytes, from: start).description)."
      )
    }
    var reader = ExportReader(cursor: JSONCursor(bytes), budget: budget)
    defer { budget = reader.budget }
    return try reader.lists(documentAt: first)
  }

  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

/// Reads the members of a checked JSON text as version 1 of the export.
private struct ExportReader {
  let cursor: JSONCursor
  var budget: ImportBudget

  mutating func lists(documentAt offset: Int) throws(ImportFailure) -> [ImportedList] {
    let kind = cursor.kind(at: offset)
    guard kind == .object else {
      throw ImportFailure(
        "This file is JSON, but not a Checklists export: it holds \(kind.described) where an export holds an object with “format”: “checklists”."
      )
    }
    let subject = "This Checklists export"
    let members = try find(Names.document, in: offset, subject: "This JSON file")
    guard let format = members[0] else {
      throw ImportFailure(
        "This JSON file is not a Checklists export: it has no “format”: “checklists”.")
    }
    guard cursor.kind(at: format) == .string, cursor.string(at: format) == JSONExport.format else {
      throw ImportFailure(
        "This JSON file is not a Checklists export: its “format” is \(shown(format)), not “checklists”."
      )
    }
    try checkVersion(at: members[1], subject: subject)
    let listsOffset = try required(
      "lists", members[2], .array, subject: subject, "an array of lists")
    let elements = cursor.elements(ofArrayAt: listsOffset, limit: Limits.maximumLists + 1)
    guard elements.count <= Limits.maximumLists else {
      throw ImportFailure(
        "This file has more than \(grouped(Limits.maximumLists)) lists; Checklists keeps at most \(grouped(Limits.maximumLists))."
      )
    }
    var lists: [ImportedList] = []
    lists.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      lists.append(try list(at: element, number: index + 1))
    }
    return lists
  }

  /// `version` must be 1; a later one is a newer server's export.
  private func checkVersion(at offset: Int?, subject: String) throws(ImportFailure) {
    let offset = try required(
      "version", offset, .number, subject: subject, "a whole number such as 1")
    let token = cursor.token(at: offset)
    let digits = token.drop { $0 == UInt8(ascii: "-") }
    guard !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
      throw ImportFailure(
        "\(subject): “version” is \(shown(offset)); it must be a whole number such as 1.")
    }
    let written = String(decoding: token, as: UTF8.self)
    // Past 9 digits the exact value does not matter, only its side of 1.
    let magnitude = digits.count > 9 ? Int.max : Int(String(decoding: digits, as: UTF8.self)) ?? 0
    let version = token.first == UInt8(ascii: "-") ? -magnitude : magnitude
    if version > JSONExport.version {
      throw ImportFailure(
        "This file is a Checklists export in format version \(written), newer than this server reads (version \(JSONExport.version)): update Checklists on this server to import it."
      )
    }
    guard version == JSONExport.version else {
      throw ImportFailure(
        "\(subject) has “version” \(written), which no Checklists server writes: the first version is 1."
      )
    }
  }

  private mutating func list(at offset: Int, number: Int) throws(ImportFailure) -> ImportedList {
    let kind = cursor.kind(at: offset)
    guard kind == .object else {
      throw ImportFailure(
        "List \(number) is \(kind.described); each list must be an object with a “name” and its “items”."
      )
    }
    var subject = "List \(number)"
    let members = try find(Names.list, in: offset, subject: subject)
    let nameOffset = try required("name", members[0], .string, subject: subject, "a text in quotes")
    let name = cursor.string(at: nameOffset)
    subject += " (“\(Self.shortened(name))”)"
    var list = ImportedList(name: name)
    if let icon = try optional(
      "icon", members[1], .string, subject: subject, "an icon’s name in quotes, such as “groceries”"
    ) {
      list.icon = ChecklistIcon(rawValue: cursor.string(at: icon)) ?? .folder
    }
    if let sortOffset = try optional(
      "sort", members[2], .string, subject: subject, "“own” or “dueDate”")
    {
      guard let sort = ItemSort(rawValue: cursor.string(at: sortOffset)) else {
        throw ImportFailure(
          "\(subject): “sort” is \(shown(sortOffset)); it must be “own” or “dueDate”.")
      }
      list.sort = sort
    }
    if let template = try optional(
      "template", members[4], .bool, subject: subject, "true or false")
    {
      list.isTemplate = isTrue(template)
    }
    let itemsOffset = try required(
      "items", members[3], .array, subject: subject, "an array of items")
    let elements = cursor.elements(ofArrayAt: itemsOffset, limit: Limits.maximumItemsPerList + 1)
    guard elements.count <= Limits.maximumItemsPerList else {
      throw ImportFailure(
        "\(subject) has more than \(grouped(Limits.maximumItemsPerList)) items; a list holds at most \(grouped(Limits.maximumItemsPerList))."
      )
    }
    try budget.chargeList(name: list.name, icon: list.icon, sort: list.sort)
    list.items.reserveCapacity(elements.count)
    let listPlace = "of list \(number) (“\(Self.shortened(name))”)"
    for (index, element) in elements.enumerated() {
      let read = try item(at: element, number: index + 1, listPlace: listPlace)
      try budget.chargeItem(read)
      list.items.append(read)
    }
    return list
  }

  private func item(at offset: Int, number: Int, listPlace: String) throws(ImportFailure)
    -> ImportedItem
  {
    // Made only for a message: most items never need it.
    func subject() -> String { "Item \(number) \(listPlace)" }
    let kind = cursor.kind(at: offset)
    guard kind == .object else {
      throw ImportFailure(
        "\(subject()) is \(kind.described); each item must be an object with a “text” and “checked”."
      )
    }
    let members = try find(Names.item, in: offset, subject: subject())
    let text = try required("text", members[0], .string, subject: subject(), "a text in quotes")
    let checked = try required("checked", members[1], .bool, subject: subject(), "true or false")
    var item = ImportedItem(text: cursor.string(at: text), checked: isTrue(checked))
    if let due = try optional(
      "dueDate", members[2], .string, subject: subject(),
      "a date and time in quotes, such as “2025-03-01T17:00:00Z”")
    {
      guard let seconds = RFC3339.seconds(cursor.string(at: due).utf8) else {
        throw ImportFailure(
          "\(subject()): “dueDate” is \(shown(due)); it must be a date and time such as “2025-03-01T17:00:00Z”."
        )
      }
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      guard DueDate.range.contains(date) else {
        throw ImportFailure(
          "\(subject()): the due date \(shown(due)) is outside the years 1970 to 9999.")
      }
      item.dueDate = date
    }
    if let remind = try optional(
      "shouldRemind", members[3], .bool, subject: subject(), "true or false")
    {
      item.shouldRemind = isTrue(remind)
    }
    if let notes = try optional(
      "notes", members[4], .string, subject: subject(), "a text in quotes")
    {
      item.notes = cursor.string(at: notes)
    }
    if let rule = try optional(
      "recurrence", members[5], .string, subject: subject(),
      "an RRULE in quotes, such as “FREQ=WEEKLY”")
    {
      let text = cursor.string(at: rule)
      guard text.utf8.count <= Recurrence.maximumBytes else {
        throw ImportFailure(
          "\(subject()): “recurrence” is longer than \(Recurrence.maximumBytes) bytes.")
      }
      item.recurrence = text
    }
    return item
  }

  // MARK: Members

  /// The offsets of the values of `names` in the object at `offset` (nil
  /// for each one it does not have); other members are passed over.
  ///
  /// - Throws: when a member of `names` is there twice.
  private func find(
    _ names: [[UInt8]], in offset: Int, subject: @autoclosure () -> String
  ) throws(ImportFailure)
    -> [Int?]
  {
    var found = [Int?](repeating: nil, count: names.count)
    try cursor.forEachMember(ofObjectAt: offset) { (name, value) throws(ImportFailure) in
      guard let index = names.firstIndex(where: { cursor.string(at: name, equals: $0) }) else {
        return
      }
      guard found[index] == nil else {
        throw ImportFailure(
          "\(subject()) has “\(String(decoding: names[index], as: UTF8.self))” twice.")
      }
      found[index] = value
    }
    return found
  }

  /// The value's offset, which must be there and of `kind`.
  private func required(
    _ name: String, _ offset: Int?, _ kind: JSONCursor.Kind, subject: @autoclosure () -> String,
    _ expected: String
  ) throws(ImportFailure) -> Int {
    guard let offset else { throw ImportFailure("\(subject()) has no “\(name)”.") }
    try check(name, offset, kind, subject: subject(), expected)
    return offset
  }

  /// The value's offset, or nil when it is not there or `null`.
  private func optional(
    _ name: String, _ offset: Int?, _ kind: JSONCursor.Kind, subject: @autoclosure () -> String,
    _ expected: String
  ) throws(ImportFailure) -> Int? {
    guard let offset, cursor.kind(at: offset) != .null else { return nil }
    try check(name, offset, kind, subject: subject(), expected)
    return offset
  }

  private func check(
    _ name: String, _ offset: Int, _ kind: JSONCursor.Kind, subject: @autoclosure () -> String,
    _ expected: String
  ) throws(ImportFailure) {
    let found = cursor.kind(at: offset)
    guard found == kind else {
      throw ImportFailure(
        "\(subject()): “\(name)” is \(found.described); it must be \(expected).")
    }
  }

  private func isTrue(_ offset: Int) -> Bool {
    cursor.bytes[offset] == UInt8(ascii: "t")
  }

  // MARK: Words

  /// A value for a message: a text in curly quotes (shortened), a number
  /// as written, or its kind.
  private func shown(_ offset: Int) -> String {
    switch cursor.kind(at: offset) {
    case .string: "“\(Self.shortened(cursor.string(at: offset)))”"
    case .number, .bool, .null:
      String(decoding: cursor.token(at: offset).prefix(40), as: UTF8.self)
    case let kind: kind.described
    }
  }

  /// At most 40 characters, control characters as spaces.
  static func shortened(_ text: String) -> String {
    let visible = String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    return visible.count > 40 ? String(visible.prefix(40)) + "…" : visible
  }
}

/// The members the reader looks for, as UTF-8.
private enum Names {
  static let document = ["format", "version", "lists"].map { Array($0.utf8) }
  static let list = ["name", "icon", "sort", "items", "template"].map { Array($0.utf8) }
  static let item = ["text", "checked", "dueDate", "shouldRemind", "notes", "recurrence"].map {
    Array($0.utf8)
  }
}

/// `5000` as "5,000".
private func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return result
}
