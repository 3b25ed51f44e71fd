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
        translatable("This file is UTF-16 or UTF-32 text; a Checklists export is UTF-8 text."))
    }
    if let invalid = UTF8Check.firstInvalidOffset(in: bytes, from: start) {
      throw ImportFailure(
        translatable(
          "This file is not UTF-8 text: the byte at {{place}} is not part of a UTF-8 character."),
        ["place": .phrase(TextPosition(of: invalid, in: bytes, from: start).phrase)])
    }
    var first = start
    JSONSyntax.skipWhitespace(bytes, &first)
    guard first < bytes.count else { throw ImportFailure(translatable("This file is empty.")) }
    do {
      try JSONSyntax.check(bytes, from: start)
    } catch {
      throw ImportFailure(
        translatable("This file is not valid JSON: {{problem}} at {{place}}."),
        [
          "problem": .phrase(error.problem),
          "place": .phrase(TextPosition(of: error.offset, in: bytes, from: start).phrase),
        ])
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
        translatable(
          "This file is JSON, but not a Checklists export: it holds {{kind}} where an export holds an object with “format”: “checklists”."
        ), ["kind": .phrase(kind.described)])
    }
    let subject = ImportPhrase(translatable("This Checklists export"))
    let members = try find(
      Names.document, in: offset, subject: ImportPhrase(translatable("This JSON file")))
    guard let format = members[0] else {
      throw ImportFailure(
        translatable(
          "This JSON file is not a Checklists export: it has no “format”: “checklists”."))
    }
    guard cursor.kind(at: format) == .string, cursor.string(at: format) == JSONExport.format else {
      throw ImportFailure(
        translatable(
          "This JSON file is not a Checklists export: its “format” is {{value}}, not “checklists”."
        ), ["value": shown(format)])
    }
    try checkVersion(at: members[1], subject: subject)
    let listsOffset = try required(
      "lists", members[2], .array, subject: subject, translatable("an array of lists"))
    let elements = cursor.elements(ofArrayAt: listsOffset, limit: Limits.maximumLists + 1)
    guard elements.count <= Limits.maximumLists else {
      throw ImportFailure(
        translatable(
          "This file has more than {{limit}} lists; Checklists keeps at most {{limit}}."),
        ["limit": .text(grouped(Limits.maximumLists))])
    }
    var lists: [ImportedList] = []
    lists.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      lists.append(try list(at: element, number: index + 1))
    }
    return lists
  }

  /// `version` must be 1; a later one is a newer server's export.
  private func checkVersion(at offset: Int?, subject: ImportPhrase) throws(ImportFailure) {
    let offset = try required(
      "version", offset, .number, subject: subject, translatable("a whole number such as 1"))
    let token = cursor.token(at: offset)
    let digits = token.drop { $0 == UInt8(ascii: "-") }
    guard !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
      throw ImportFailure(
        translatable("{{subject}}: “version” is {{value}}; it must be a whole number such as 1."),
        ["subject": .phrase(subject), "value": shown(offset)])
    }
    let written = String(decoding: token, as: UTF8.self)
    // Past 9 digits the exact value does not matter, only its side of 1.
    let magnitude = digits.count > 9 ? Int.max : Int(String(decoding: digits, as: UTF8.self)) ?? 0
    let version = token.first == UInt8(ascii: "-") ? -magnitude : magnitude
    if version > JSONExport.version {
      throw ImportFailure(
        translatable(
          "This file is a Checklists export in format version {{version}}, newer than this server reads (version {{readable}}): update Checklists on this server to import it."
        ), ["version": .text(written), "readable": .number(JSONExport.version)])
    }
    guard version == JSONExport.version else {
      throw ImportFailure(
        translatable(
          "{{subject}} has “version” {{version}}, which no Checklists server writes: the first version is 1."
        ), ["subject": .phrase(subject), "version": .text(written)])
    }
  }

  private mutating func list(at offset: Int, number: Int) throws(ImportFailure) -> ImportedList {
    let kind = cursor.kind(at: offset)
    guard kind == .object else {
      throw ImportFailure(
        translatable(
          "List {{listPosition}} is {{kind}}; each list must be an object with a “name” and its “items”."
        ), ["listPosition": .number(number), "kind": .phrase(kind.described)])
    }
    var subject = ImportPhrase(
      translatable("List {{listPosition}}"), ["listPosition": .number(number)])
    let members = try find(Names.list, in: offset, subject: subject)
    let nameOffset = try required(
      "name", members[0], .string, subject: subject, translatable("a text in quotes"))
    let name = cursor.string(at: nameOffset)
    subject = ImportPhrase(
      translatable("List {{listPosition}} (“{{name}}”)"),
      ["listPosition": .number(number), "name": .text(Self.shortened(name))])
    var list = ImportedList(name: name)
    if let icon = try optional(
      "icon", members[1], .string, subject: subject,
      translatable("an icon’s name in quotes, such as “groceries”")
    ) {
      list.icon = ChecklistIcon(rawValue: cursor.string(at: icon)) ?? .folder
    }
    if let sortOffset = try optional(
      "sort", members[2], .string, subject: subject, translatable("“own” or “dueDate”"))
    {
      guard let sort = ItemSort(rawValue: cursor.string(at: sortOffset)) else {
        throw ImportFailure(
          translatable("{{subject}}: “sort” is {{value}}; it must be “own” or “dueDate”."),
          ["subject": .phrase(subject), "value": shown(sortOffset)])
      }
      list.sort = sort
    }
    if let template = try optional(
      "template", members[4], .bool, subject: subject, translatable("true or false"))
    {
      list.isTemplate = isTrue(template)
    }
    let itemsOffset = try required(
      "items", members[3], .array, subject: subject, translatable("an array of items"))
    let elements = cursor.elements(ofArrayAt: itemsOffset, limit: Limits.maximumItemsPerList + 1)
    guard elements.count <= Limits.maximumItemsPerList else {
      throw ImportFailure(
        translatable("{{subject}} has more than {{limit}} items; a list holds at most {{limit}}."),
        ["subject": .phrase(subject), "limit": .text(grouped(Limits.maximumItemsPerList))])
    }
    try budget.chargeList(name: list.name, icon: list.icon, sort: list.sort)
    list.items.reserveCapacity(elements.count)
    let shortName = Self.shortened(name)
    for (index, element) in elements.enumerated() {
      let read = try item(at: element, number: index + 1, list: number, listName: shortName)
      try budget.chargeItem(read)
      list.items.append(read)
    }
    return list
  }

  private func item(at offset: Int, number: Int, list: Int, listName: String)
    throws(ImportFailure) -> ImportedItem
  {
    // Made only for a message: most items never need it.
    func subject() -> ImportPhrase {
      ImportPhrase(
        translatable("Item {{itemPosition}} of list {{listPosition}} (“{{name}}”)"),
        ["itemPosition": .number(number), "listPosition": .number(list), "name": .text(listName)])
    }
    let kind = cursor.kind(at: offset)
    guard kind == .object else {
      throw ImportFailure(
        translatable(
          "{{subject}} is {{kind}}; each item must be an object with a “text” and “checked”."),
        ["subject": .phrase(subject()), "kind": .phrase(kind.described)])
    }
    let members = try find(Names.item, in: offset, subject: subject())
    let text = try required(
      "text", members[0], .string, subject: subject(), translatable("a text in quotes"))
    let checked = try required(
      "checked", members[1], .bool, subject: subject(), translatable("true or false"))
    var item = ImportedItem(text: cursor.string(at: text), checked: isTrue(checked))
    if let due = try optional(
      "dueDate", members[2], .string, subject: subject(),
      translatable("a date and time in quotes, such as “2025-03-01T17:00:00Z”"))
    {
      guard let seconds = RFC3339.seconds(cursor.string(at: due).utf8) else {
        throw ImportFailure(
          translatable(
            "{{subject}}: “dueDate” is {{value}}; it must be a date and time such as “2025-03-01T17:00:00Z”."
          ), ["subject": .phrase(subject()), "value": shown(due)])
      }
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      guard DueDate.range.contains(date) else {
        throw ImportFailure(
          translatable("{{subject}}: the due date {{value}} is outside the years 1970 to 9999."),
          ["subject": .phrase(subject()), "value": shown(due)])
      }
      item.dueDate = date
    }
    if let remind = try optional(
      "shouldRemind", members[3], .bool, subject: subject(), translatable("true or false"))
    {
      item.shouldRemind = isTrue(remind)
    }
    if let notes = try optional(
      "notes", members[4], .string, subject: subject(), translatable("a text in quotes"))
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
    _ names: [[UInt8]], in offset: Int, subject: @autoclosure () -> ImportPhrase
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
          translatable("{{subject}} has “{{member}}” twice."),
          [
            "subject": .phrase(subject()),
            "member": .text(String(decoding: names[index], as: UTF8.self)),
          ])
      }
      found[index] = value
    }
    return found
  }

  /// The value's offset, which must be there and of `kind`.
  private func required(
    _ name: String, _ offset: Int?, _ kind: JSONCursor.Kind,
    subject: @autoclosure () -> ImportPhrase, _ expected: String
  ) throws(ImportFailure) -> Int {
    guard let offset else {
      throw ImportFailure(
        translatable("{{subject}} has no “{{member}}”."),
        ["subject": .phrase(subject()), "member": .text(name)])
    }
    try check(name, offset, kind, subject: subject(), expected)
    return offset
  }

  /// The value's offset, or nil when it is not there or `null`.
  private func optional(
    _ name: String, _ offset: Int?, _ kind: JSONCursor.Kind,
    subject: @autoclosure () -> ImportPhrase, _ expected: String
  ) throws(ImportFailure) -> Int? {
    guard let offset, cursor.kind(at: offset) != .null else { return nil }
    try check(name, offset, kind, subject: subject(), expected)
    return offset
  }

  private func check(
    _ name: String, _ offset: Int, _ kind: JSONCursor.Kind,
    subject: @autoclosure () -> ImportPhrase, _ expected: String
  ) throws(ImportFailure) {
    let found = cursor.kind(at: offset)
    guard found == kind else {
      throw ImportFailure(
        translatable("{{subject}}: “{{member}}” is {{kind}}; it must be {{expected}}."),
        [
          "subject": .phrase(subject()), "member": .text(name),
          "kind": .phrase(found.described), "expected": .phrase(ImportPhrase(expected)),
        ])
    }
  }

  private func isTrue(_ offset: Int) -> Bool {
    cursor.bytes[offset] == UInt8(ascii: "t")
  }

  // MARK: Words

  /// A value for a message: a text in curly quotes (shortened), a number
  /// as written, or its kind.
  private func shown(_ offset: Int) -> ImportPhrase.Part {
    switch cursor.kind(at: offset) {
    case .string: .text("“\(Self.shortened(cursor.string(at: offset)))”")
    case .number, .bool, .null:
      .text(String(decoding: cursor.token(at: offset).prefix(40), as: UTF8.self))
    case let kind: .phrase(kind.described)
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
