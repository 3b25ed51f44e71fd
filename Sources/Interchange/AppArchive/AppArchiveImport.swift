import ChecklistsModel
import Foundation
import PropertyList

/// Reads the iOS Checklists app's own `Checklists.plist`, in either form the app wrote,
/// binary or XML:
/// - the `NSKeyedArchiver` archive of its Objective-C and NSCoder editions: under the
///   root key `Checklists`, an array of `Checklist` objects (`Name`, `Items`, `IconName`),
///   each item a `ChecklistItem` (`Text`, `Checked`, `DueDate`, `ShouldRemind`, `ItemID`);
///   see `KeyedArchive`;
/// - the plain property list of its Codable editions: an array of dictionaries (`name`,
///   `items`, `iconName`), each item a dictionary (`text`, `checked`, `dueDate`,
///   `shouldRemind`, `itemID`).
///
/// Which form a file is comes from its content, never its name. The property list is read
/// by our own strict readers (see `PropertyList` for why not Foundation's). Lists and
/// items come out in the file's order with their raw texts (`DataModel.addImported`
/// cleans them and gives new ids; the app's `ItemID` is checked to be an integer and
/// dropped); icon names map to `ChecklistIcon` (an unknown one to Folder); due dates,
/// checkmarks and reminders are kept.
package enum AppArchiveImport {
  /// Items in all lists together past which a file is refused before more are built: a
  /// first look at each list's count before its items are read. No visitor can keep this
  /// many: the stored file stops at 2 MiB (`Limits.maximumStoredBytes`), and an item takes
  /// at least 149 bytes of it, so fewer than 14,100 fit; `ImportBudget` stops at those
  /// bytes while the items are read, since a binary plist may name one items array from
  /// every list (500 lists of the same 5,000 items in a file of a few KB).
  package static let maximumItems = 50_000

  /// Whether `bytes` look like a property list, binary (`bplist00`) or XML: a cheap
  /// look at the first bytes, not a promise that `lists(from:)` reads them.
  package static func looksLike(_ bytes: [UInt8]) -> Bool {
    PropertyList.looksLike(bytes)
  }

  /// The lists of an app's `Checklists.plist`, in the file's order.
  ///
  /// - Throws: `ImportFailure` with a sentence for the visitor: not a property list, a
  ///   damaged one, neither form, a damaged or circular archive, a class or a value of the
  ///   wrong kind (naming the list and item), or more lists or items than can be kept.
  package static func lists(from bytes: [UInt8]) throws(ImportFailure) -> [ImportedList] {
    var budget = ImportBudget()
    return try lists(from: bytes, budget: &budget)
  }

  /// `lists(from:)`, charging each list and item to `budget` as it is read, a shared one
  /// each time the file names it.
  package static func lists(from bytes: [UInt8], budget: inout ImportBudget)
    throws(ImportFailure) -> [ImportedList]
  {
    let list: PropertyList
    do { list = try PropertyList(reading: bytes) } catch {
      throw ImportFailure(phrase(of: error))
    }
    switch list.topObject {
    case .dictionary(let header) where header["$archiver"] != nil:
      var archive = try KeyedArchiveLists(list: list, header: header)
      return try archive.lists(budget: &budget)
    case .array(let members):
      return try CodableLists(list: list).lists(members, budget: &budget)
    case .dictionary(let entries) where entries["lists"] != nil && entries["nextListID"] != nil:
      throw ImportFailure(
        translatable(
          "This is a Checklists.plist of this site, not of the iOS app; to bring lists from this site, import its JSON export."
        ))
    default:
      throw ImportFailure(
        translatable(
          "This property list is not a Checklists.plist of the iOS app: it is neither a keyed archive of checklists nor a list of checklists."
        ))
    }
  }

  /// The app's icon names ("No Icon", "Groceries", …) are `ChecklistIcon`'s display names.
  static func icon(named name: String?) -> ChecklistIcon {
    guard let name else { return .folder }
    return ChecklistIcon.allCases.first { $0.displayName == name } ?? .folder
  }

  /// A due date from seconds since 2001-01-01 UTC, which must be a finite number.
  static func dueDate(_ seconds: Double, _ place: @autoclosure () -> ImportPhrase)
    throws(ImportFailure) -> Date
  {
    guard seconds.isFinite else {
      throw ImportFailure(
        translatable("{{subject}} is not a valid date."), ["subject": .phrase(place())])
    }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  static func tooManyLists() -> ImportFailure {
    ImportFailure(
      translatable("This file holds more than {{limit}} lists; at most {{limit}} can be kept."),
      ["limit": .number(Limits.maximumLists)])
  }

  static func tooManyItems(list: Int) -> ImportFailure {
    ImportFailure(
      translatable(
        "List {{listPosition}} holds more than {{limit}} items; a list holds at most {{limit}}."),
      ["listPosition": .number(list), "limit": .number(Limits.maximumItemsPerList)])
  }

  static func tooManyItemsInAll() -> ImportFailure {
    ImportFailure(
      translatable(
        "This file holds more than {{limit}} items in all, more than anyone’s checklists can keep."),
      ["limit": .number(maximumItems)])
  }

  /// "List 2" or "List 2, item 5": where a value is, 1-based in the file's order.
  static func place(list: Int, item: Int? = nil) -> ImportPhrase {
    item.map {
      ImportPhrase(
        translatable("List {{listPosition}}, item {{itemPosition}}"),
        ["listPosition": .number(list), "itemPosition": .number($0)])
    } ?? ImportPhrase(translatable("List {{listPosition}}"), ["listPosition": .number(list)])
  }

  /// `place`: `key` ("List 2: “Items”").
  static func member(_ place: ImportPhrase, _ key: String) -> ImportPhrase {
    ImportPhrase(
      translatable("{{subject}}: “{{member}}”"), ["subject": .phrase(place), "member": .text(key)])
  }

  /// "{{subject}} has no “{{member}}”."
  static func missing(_ place: ImportPhrase, _ key: String) -> ImportFailure {
    ImportFailure(
      translatable("{{subject}} has no “{{member}}”."),
      ["subject": .phrase(place), "member": .text(key)])
  }

  /// "{{subject}} is {{kind}}, not {{expected}}.": `found` is a kind's
  /// English words (`PropertyListObject.kind`, `KeyedArchive.Archived.kind`).
  static func wrongKind(_ place: ImportPhrase, _ found: String, expected: String)
    -> ImportFailure
  {
    ImportFailure(
      translatable("{{subject}} is {{kind}}, not {{expected}}."),
      [
        "subject": .phrase(place), "kind": .phrase(ImportPhrase(found)),
        "expected": .phrase(ImportPhrase(expected)),
      ])
  }

  /// The property list reader's sentence as a phrase of ours: its values
  /// as the file has them, what is wrong inside the file a phrase of its
  /// own, each translated by the page.
  static func phrase(of error: PropertyListError) -> ImportPhrase {
    var values = error.sentence.values.mapValues { ImportPhrase.Part.text($0) }
    if let problem = error.problem {
      values["problem"] = .phrase(
        ImportPhrase(problem.english, problem.values.mapValues { .text($0) }))
    }
    return ImportPhrase(error.sentence.english, values)
  }

  /// The kinds' words, as `PropertyListObject.kind` and the archive's
  /// classes say them, marked for the catalogue (a failure names them by
  /// their English, which the page then looks up).
  static let kinds = [
    translatable("a dictionary"), translatable("an array"), translatable("a string"),
    translatable("an integer"), translatable("a real number"), translatable("a true/false value"),
    translatable("a date"), translatable("data"), translatable("a reference"),
    translatable("empty (null)"), translatable("a checklist"), translatable("a checklist item"),
    translatable("a number"),
  ]
}

/// The Codable editions' plist: an array of list dictionaries.
private struct CodableLists {
  let list: PropertyList

  func lists(_ members: [Int], budget: inout ImportBudget) throws(ImportFailure)
    -> [ImportedList]
  {
    guard members.count <= Limits.maximumLists else { throw AppArchiveImport.tooManyLists() }
    var result: [ImportedList] = []
    result.reserveCapacity(members.count)
    var itemsInAll = 0
    for (offset, member) in members.enumerated() {
      let number = offset + 1
      let place = AppArchiveImport.place(list: number)
      let fields = try dictionary(member, place)
      let name = try requiredString(fields, "name", place)
      let icon = AppArchiveImport.icon(named: try string(fields, "iconName", place))
      guard let itemsIndex = fields["items"] else {
        throw AppArchiveImport.missing(place, "items")
      }
      guard case .array(let itemMembers) = list[itemsIndex] else {
        throw AppArchiveImport.wrongKind(
          AppArchiveImport.member(place, "items"), list[itemsIndex].kind,
          expected: translatable("an array"))
      }
      guard itemMembers.count <= Limits.maximumItemsPerList else {
        throw AppArchiveImport.tooManyItems(list: number)
      }
      itemsInAll += itemMembers.count
      guard itemsInAll <= AppArchiveImport.maximumItems else {
        throw AppArchiveImport.tooManyItemsInAll()
      }
      try budget.chargeList(name: name, icon: icon)
      var items: [ImportedItem] = []
      items.reserveCapacity(itemMembers.count)
      for (itemOffset, itemMember) in itemMembers.enumerated() {
        let read = try item(itemMember, AppArchiveImport.place(list: number, item: itemOffset + 1))
        try budget.chargeItem(read)
        items.append(read)
      }
      result.append(ImportedList(name: name, icon: icon, items: items))
    }
    return result
  }

  func item(_ index: Int, _ place: ImportPhrase) throws(ImportFailure) -> ImportedItem {
    let fields = try dictionary(index, place)
    let text = try requiredString(fields, "text", place)
    var dueDate: Date?
    if let dateIndex = fields["dueDate"] {
      guard case .date(let seconds) = list[dateIndex] else {
        throw AppArchiveImport.wrongKind(
          AppArchiveImport.member(place, "dueDate"), list[dateIndex].kind,
          expected: translatable("a date"))
      }
      dueDate = try AppArchiveImport.dueDate(seconds, AppArchiveImport.member(place, "dueDate"))
    }
    if let idIndex = fields["itemID"], !list[idIndex].isInteger {
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, "itemID"), list[idIndex].kind,
        expected: translatable("an integer"))
    }
    return ImportedItem(
      text: text, checked: try bool(fields, "checked", place), dueDate: dueDate,
      shouldRemind: try bool(fields, "shouldRemind", place))
  }

  func dictionary(_ index: Int, _ place: ImportPhrase) throws(ImportFailure) -> [String: Int] {
    guard case .dictionary(let fields) = list[index] else {
      throw AppArchiveImport.wrongKind(
        place, list[index].kind, expected: translatable("a dictionary"))
    }
    return fields
  }

  func requiredString(_ fields: [String: Int], _ key: String, _ place: ImportPhrase)
    throws(ImportFailure) -> String
  {
    guard let value = try string(fields, key, place) else {
      throw AppArchiveImport.missing(place, key)
    }
    return value
  }

  /// The string under `key`, or nil when there is none.
  func string(_ fields: [String: Int], _ key: String, _ place: ImportPhrase) throws(ImportFailure)
    -> String?
  {
    guard let index = fields[key] else { return nil }
    guard case .string(let value) = list[index] else {
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, key), list[index].kind, expected: translatable("a string"))
    }
    return value
  }

  func bool(_ fields: [String: Int], _ key: String, _ place: ImportPhrase) throws(ImportFailure)
    -> Bool
  {
    guard let index = fields[key] else { return false }
    guard case .bool(let value) = list[index] else {
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, key), list[index].kind,
        expected: translatable("a true/false value"))
    }
    return value
  }
}

/// The Objective-C and NSCoder editions' keyed archive.
private struct KeyedArchiveLists {
  var archive: KeyedArchive

  init(list: PropertyList, header: [String: Int]) throws(ImportFailure) {
    archive = try KeyedArchive(list, header: header)
  }

  mutating func lists(budget: inout ImportBudget) throws(ImportFailure) -> [ImportedList] {
    guard let rootPosition = archive.top["Checklists"] else {
      let keys = archive.top.keys.sorted().prefix(5).map { "“\(KeyedArchive.shortened($0))”" }
      if keys.isEmpty {
        throw ImportFailure(
          translatable("This archive holds no checklists: its root is not “Checklists”."))
      }
      throw ImportFailure(
        translatable(
          "This archive holds no checklists: its root is not “Checklists” (it holds {{keys}})."),
        ["keys": .text(keys.joined(separator: ", "))])
    }
    let checklists = ImportPhrase(translatable("The archive’s “Checklists”"))
    let root = try archive.uid(at: rootPosition, checklists)
    try archive.checkGraph(from: root)
    let listUIDs: [UInt64]
    switch try archive.entry(root) {
    case .null: return []
    case .instance(.array, let fields):
      listUIDs = try members(fields, checklists)
    case let other:
      throw AppArchiveImport.wrongKind(
        checklists, other.kind, expected: translatable("an array of lists"))
    }
    guard listUIDs.count <= Limits.maximumLists else { throw AppArchiveImport.tooManyLists() }
    var result: [ImportedList] = []
    result.reserveCapacity(listUIDs.count)
    var itemsInAll = 0
    for (offset, uid) in listUIDs.enumerated() {
      let number = offset + 1
      let place = AppArchiveImport.place(list: number)
      guard case .instance(.checklist, let fields) = try archive.entry(uid) else {
        throw AppArchiveImport.wrongKind(
          place, try archive.entry(uid).kind, expected: translatable("a checklist"))
      }
      guard let name = try string(fields, "Name", place) else {
        throw AppArchiveImport.missing(place, "Name")
      }
      let icon = AppArchiveImport.icon(named: try string(fields, "IconName", place))
      guard let itemsPosition = fields["Items"] else {
        throw AppArchiveImport.missing(place, "Items")
      }
      let itemsUID = try archive.uid(at: itemsPosition, AppArchiveImport.member(place, "Items"))
      guard case .instance(.array, let itemsFields) = try archive.entry(itemsUID) else {
        throw AppArchiveImport.wrongKind(
          AppArchiveImport.member(place, "Items"), try archive.entry(itemsUID).kind,
          expected: translatable("an array"))
      }
      let itemUIDs = try members(itemsFields, AppArchiveImport.member(place, "Items"))
      guard itemUIDs.count <= Limits.maximumItemsPerList else {
        throw AppArchiveImport.tooManyItems(list: number)
      }
      itemsInAll += itemUIDs.count
      guard itemsInAll <= AppArchiveImport.maximumItems else {
        throw AppArchiveImport.tooManyItemsInAll()
      }
      try budget.chargeList(name: name, icon: icon)
      var items: [ImportedItem] = []
      items.reserveCapacity(itemUIDs.count)
      for (itemOffset, itemUID) in itemUIDs.enumerated() {
        let read = try item(itemUID, AppArchiveImport.place(list: number, item: itemOffset + 1))
        try budget.chargeItem(read)
        items.append(read)
      }
      result.append(ImportedList(name: name, icon: icon, items: items))
    }
    return result
  }

  mutating func item(_ uid: UInt64, _ place: ImportPhrase) throws(ImportFailure) -> ImportedItem {
    guard case .instance(.checklistItem, let fields) = try archive.entry(uid) else {
      throw AppArchiveImport.wrongKind(
        place, try archive.entry(uid).kind, expected: translatable("a checklist item"))
    }
    guard let text = try string(fields, "Text", place) else {
      throw AppArchiveImport.missing(place, "Text")
    }
    var dueDate: Date?
    if let datePosition = fields["DueDate"] {
      let dateUID = try archive.uid(at: datePosition, AppArchiveImport.member(place, "DueDate"))
      switch try archive.entry(dateUID) {
      case .null: break
      case .instance(.date, let dateFields):
        guard let timePosition = dateFields["NS.time"] else {
          throw ImportFailure(
            translatable("{{subject}} has no time."),
            ["subject": .phrase(AppArchiveImport.member(place, "DueDate"))])
        }
        let seconds: Double
        switch archive.list[timePosition] {
        case .real(let value): seconds = value
        case .integer(let value): seconds = Double(value)
        case let other:
          throw AppArchiveImport.wrongKind(
            ImportPhrase(
              translatable("{{subject}}: the time of “{{member}}”"),
              ["subject": .phrase(place), "member": .text("DueDate")]), other.kind,
            expected: translatable("a number"))
        }
        dueDate = try AppArchiveImport.dueDate(seconds, AppArchiveImport.member(place, "DueDate"))
      case let other:
        throw AppArchiveImport.wrongKind(
          AppArchiveImport.member(place, "DueDate"), other.kind, expected: translatable("a date"))
      }
    }
    if let idPosition = fields["ItemID"], !archive.list[idPosition].isInteger {
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, "ItemID"), archive.list[idPosition].kind,
        expected: translatable("an integer"))
    }
    return ImportedItem(
      text: text, checked: try bool(fields, "Checked", place), dueDate: dueDate,
      shouldRemind: try bool(fields, "ShouldRemind", place))
  }

  /// An array instance's members (`NS.objects`), each a UID.
  func members(_ fields: [String: Int], _ place: ImportPhrase) throws(ImportFailure) -> [UInt64] {
    guard let position = fields["NS.objects"], case .array(let members) = archive.list[position]
    else {
      throw ImportFailure(
        translatable("{{subject}} is an array without its members (“{{member}}”)."),
        ["subject": .phrase(place), "member": .text("NS.objects")])
    }
    var result: [UInt64] = []
    result.reserveCapacity(members.count)
    for member in members {
      result.append(
        try archive.uid(
          at: member,
          ImportPhrase(translatable("A member of {{subject}}"), ["subject": .phrase(place)])))
    }
    return result
  }

  /// The string an object refers to under `key`: a plain string of `$objects`, or an
  /// `NSString`/`NSMutableString` instance's `NS.string`; nil when the key is missing or
  /// refers to `$null`.
  mutating func string(_ fields: [String: Int], _ key: String, _ place: ImportPhrase)
    throws(ImportFailure) -> String?
  {
    guard let position = fields[key] else { return nil }
    let uid = try archive.uid(at: position, AppArchiveImport.member(place, key))
    switch try archive.entry(uid) {
    case .null: return nil
    case .value(.string(let value)): return value
    case .instance(.string, let stringFields):
      guard let textPosition = stringFields["NS.string"],
        case .string(let value) = archive.list[textPosition]
      else {
        throw ImportFailure(
          translatable("{{subject}} is a string object without its text."),
          ["subject": .phrase(AppArchiveImport.member(place, key))])
      }
      return value
    case let other:
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, key), other.kind, expected: translatable("a string"))
    }
  }

  /// A `Bool` encoded under `key` (a plain plist boolean); false when missing, as
  /// `decodeBool(forKey:)` reads it.
  func bool(_ fields: [String: Int], _ key: String, _ place: ImportPhrase) throws(ImportFailure)
    -> Bool
  {
    guard let position = fields[key] else { return false }
    guard case .bool(let value) = archive.list[position] else {
      throw AppArchiveImport.wrongKind(
        AppArchiveImport.member(place, key), archive.list[position].kind,
        expected: translatable("a true/false value"))
    }
    return value
  }
}
