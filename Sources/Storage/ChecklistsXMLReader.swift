import ChecklistsModel
import Foundation
import PropertyList

/// Reads `Checklists.plist` in the shape `ChecklistsXMLWriter` gives it,
/// straight from its bytes into the model: no tree of values, no `String`
/// for each key, no `Decoder`. A cold visitor's 20-item list took 1.57 M
/// instructions to read through `PropertyList` and `Codable` (3/4 of the
/// whole page, `bench-web --profile N cold`); this path is the reason the
/// 20,000 rotating visitors of `scripts/bench` are not bound by decoding.
///
/// It answers nil for anything it does not know exactly (a key it does not
/// expect, one key twice, another element, an entity other than the four
/// the writer uses, CDATA, comments, a binary list, a value the model
/// refuses): the general reader then reads the file and decides, so the
/// two never disagree on a file this one accepts (`ChecklistsXMLReaderTests`
/// and the `checklists-file` fuzz target check it).
enum ChecklistsXMLReader {
  static func model(_ bytes: [UInt8]) -> DataModel? {
    var cursor = Cursor(bytes: bytes)
    guard cursor.skipPrologue() else { return nil }
    var version: Int?
    var lists: [Checklist]?
    var deletions: [Deletion] = []
    var nextListID: Int?
    var nextItemID: Int?
    var nextDeletionID: Int?
    var templates: [Checklist] = []
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .deleted: return cursor.array(&deletions) { deletion(&$0) }
      case .templates: return cursor.array(&templates) { list(&$0) }
      case .lists:
        var read: [Checklist] = []
        defer { lists = read }
        return cursor.array(&read) { list(&$0) }
      case .nextDeletionID: return cursor.integer(into: &nextDeletionID)
      case .nextItemID: return cursor.integer(into: &nextItemID)
      case .nextListID: return cursor.integer(into: &nextListID)
      case .version: return cursor.integer(into: &version)
      default: return false
      }
    }
    guard read, cursor.finish(), let version, let lists, let nextListID, let nextItemID,
      (try? DataModel.check(version: version)) != nil
    else { return nil }
    return try? DataModel(
      checking: lists, deletions: deletions, nextListID: nextListID, nextItemID: nextItemID,
      nextDeletionID: nextDeletionID, templates: templates)
  }

  private static func list(_ cursor: inout Cursor) -> Checklist? {
    var id: Int?
    var name: String?
    var icon: ChecklistIcon?
    var items: [ChecklistItem]?
    var sort = ItemSort.own
    var changes = ChangeLog()
    var properties: [CollectionProperty] = []
    var calendarName: String?
    var rule: ResetRule?
    var lastReset: Date?
    var allCheckedAt: Date?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .allCheckedAt: return cursor.date(into: &allCheckedAt)
      case .lastReset: return cursor.date(into: &lastReset)
      case .reset:
        guard let read = resetRule(&cursor) else { return false }
        rule = read
        return true
      case .calendarName: return cursor.string(into: &calendarName)
      case .changes:
        guard let log = changeLog(&cursor) else { return false }
        changes = log
        return true
      case .icon:
        guard let raw = cursor.string(), let value = ChecklistIcon(rawValue: raw) else {
          return false
        }
        icon = value
        return true
      case .id: return cursor.integer(into: &id)
      case .items:
        var read: [ChecklistItem] = []
        defer { items = read }
        return cursor.array(&read) { item(&$0, position: nil)?.item }
      case .name: return cursor.string(into: &name)
      case .properties: return cursor.array(&properties) { property(&$0) }
      case .sort:
        guard let raw = cursor.string(), let value = ItemSort(rawValue: raw) else { return false }
        sort = value
        return true
      default: return false
      }
    }
    guard read, let id, let name, let icon, let items else { return nil }
    var list = Checklist(id: id, name: name, icon: icon, items: items, sort: sort)
    list.changes = changes
    list.properties = properties
    // As `Checklist` reads it: a name that is not one reads as none.
    list.calendarName = calendarName.flatMap { CalendarName.isValid($0) ? $0 : nil }
    if let rule {
      list.reset = ScheduledReset(rule: rule, lastReset: lastReset, allCheckedAt: allCheckedAt)
    }
    return list
  }

  /// A list's `reset` dictionary, as `ResetRuleCoding` reads it.
  private static func resetRule(_ cursor: inout Cursor) -> ResetRule? {
    var kind: String?
    var hour: Int?
    var minute: Int?
    var zone: String?
    var weekdays: [Int]?
    var day: Int?
    var hours: Int?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .day: return cursor.integer(into: &day)
      case .hour: return cursor.integer(into: &hour)
      case .hours: return cursor.integer(into: &hours)
      case .kind: return cursor.string(into: &kind)
      case .minute: return cursor.integer(into: &minute)
      case .weekdays:
        var read: [Int] = []
        defer { weekdays = read }
        return cursor.array(&read) { cursor in
          var value: Int?
          return cursor.integer(into: &value) ? value : nil
        }
      case .zone: return cursor.string(into: &zone)
      default: return false
      }
    }
    guard read, let kind else { return nil }
    return try? ResetRuleCoding(
      kind: kind, hour: hour, minute: minute, zone: zone, weekdays: weekdays, day: day,
      hours: hours
    ).rule()
  }

  /// An item's dictionary; with `position` expected (a deletion's removed
  /// item), its position as well.
  private static func item(_ cursor: inout Cursor, position expected: Bool?)
    -> (item: ChecklistItem, position: Int?)?
  {
    var id: Int?
    var text: String?
    var checked: Bool?
    var dueDate: Date?
    var shouldRemind = false
    var calendar: CalendarData?
    var notes: String?
    var position: Int?
    var recurrence: String?
    var lastDone: Date?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .calendar:
        guard let data = calendarData(&cursor) else { return false }
        calendar = data
        return true
      case .checked: return cursor.bool(into: &checked)
      case .dueDate:
        guard let date = cursor.date(), let stored = DueDate.stored(date) else { return false }
        dueDate = stored
        return true
      case .id: return cursor.integer(into: &id)
      case .lastDone:
        guard let date = cursor.date() else { return false }
        lastDone = date
        return true
      case .notes: return cursor.string(into: &notes)
      case .position: return expected == true && cursor.integer(into: &position)
      case .recurrence: return cursor.string(into: &recurrence)
      case .shouldRemind:
        var flag: Bool?
        guard cursor.bool(into: &flag), let flag else { return false }
        shouldRemind = flag
        return true
      case .text: return cursor.string(into: &text)
      default: return false
      }
    }
    guard read, let id, let text, let checked, expected != true || position != nil else {
      return nil
    }
    return (
      ChecklistItem(
        id: id, text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind,
        notes: notes ?? "", calendar: calendar, recurrence: recurrence.map(Recurrence.init(text:)),
        lastDone: lastDone),
      position
    )
  }

  private static func deletion(_ cursor: inout Cursor) -> Deletion? {
    var deletedAt: Date?
    var id: Int?
    var list: Checklist?
    var items: [RemovedItem] = []
    var listID: Int?
    var listName: String?
    var deleter = Deleter.owner
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .deletedAt:
        guard let date = cursor.date() else { return false }
        deletedAt = date
        return true
      case .id: return cursor.integer(into: &id)
      case .items:
        return cursor.array(&items) { cursor in
          item(&cursor, position: true).flatMap { read in
            read.position.map { RemovedItem(position: $0, item: read.item) }
          }
        }
      case .list:
        guard let read = self.list(&cursor) else { return false }
        list = read
        return true
      case .listID: return cursor.integer(into: &listID)
      case .listName: return cursor.string(into: &listName)
      case .throughApp, .throughLink:
        var flag: Bool?
        guard cursor.bool(into: &flag), let flag, deleter == .owner else { return false }
        if flag { deleter = key == .throughApp ? .app : .editLink }
        return true
      default: return false
      }
    }
    guard read, let deletedAt, let id, let listID, let listName else { return nil }
    return Deletion(
      id: id, deletedAt: deletedAt, listID: listID, listName: listName, list: list, items: items,
      deleter: deleter)
  }

  private static func changeLog(_ cursor: inout Cursor) -> ChangeLog? {
    var revision: Int?
    var since: Int?
    var changes: [ChangeLog.Change]?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .changes:
        var read: [ChangeLog.Change] = []
        defer { changes = read }
        return cursor.array(&read) { cursor in
          var name: String?
          var revision: Int?
          let read = cursor.dictionary { cursor, key in
            switch key {
            case .name: cursor.string(into: &name)
            case .revision: cursor.integer(into: &revision)
            default: false
            }
          }
          guard read, let name, let revision else { return nil }
          return ChangeLog.Change(name: name, revision: revision)
        }
      case .revision: return cursor.integer(into: &revision)
      case .since: return cursor.integer(into: &since)
      default: return false
      }
    }
    guard read, let revision, let since, let changes else { return nil }
    return ChangeLog(checking: revision, since: since, changes: changes)
  }

  private static func property(_ cursor: inout Cursor) -> CollectionProperty? {
    var name: String?
    var namespace: String?
    var value: String?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .name: cursor.string(into: &name)
      case .namespace: cursor.string(into: &namespace)
      case .value: cursor.string(into: &value)
      default: false
      }
    }
    guard read, let name, let namespace, let value else { return nil }
    return CollectionProperty(namespace: namespace, name: name, value: value)
  }

  private static func calendarData(_ cursor: inout Cursor) -> CalendarData? {
    var kept: String?
    var resource: String?
    var uid: String?
    let read = cursor.dictionary { cursor, key in
      switch key {
      case .kept: cursor.string(into: &kept)
      case .resource: cursor.string(into: &resource)
      case .uid: cursor.string(into: &uid)
      default: false
      }
    }
    guard read, let kept, let resource, let uid else { return nil }
    return CalendarData(uid: uid, resource: resource, kept: kept)
  }
}

/// The keys of the file, each known by its bytes.
private enum FileKey: Int, CaseIterable {
  case calendar, calendarName, changes, checked, deleted, deletedAt, dueDate, icon, id, items, kept,
    lastDone, list
  case listID, listName, lists, name, namespace, notes, nextDeletionID, nextItemID, nextListID
  case position, properties, recurrence, resource, revision, shouldRemind, since, sort, templates,
    text,
    throughApp
  case throughLink, uid, value, version
  case allCheckedAt, lastReset, reset, day, hour, hours, kind, minute, weekdays, zone

  var spelling: StaticString {
    switch self {
    case .calendar: "calendar"
    case .calendarName: "calendarName"
    case .changes: "changes"
    case .checked: "checked"
    case .deleted: "deleted"
    case .deletedAt: "deletedAt"
    case .dueDate: "dueDate"
    case .icon: "icon"
    case .id: "id"
    case .items: "items"
    case .kept: "kept"
    case .lastDone: "lastDone"
    case .list: "list"
    case .listID: "listID"
    case .listName: "listName"
    case .lists: "lists"
    case .name: "name"
    case .namespace: "namespace"
    case .notes: "notes"
    case .nextDeletionID: "nextDeletionID"
    case .nextItemID: "nextItemID"
    case .nextListID: "nextListID"
    case .position: "position"
    case .properties: "properties"
    case .recurrence: "recurrence"
    case .resource: "resource"
    case .revision: "revision"
    case .shouldRemind: "shouldRemind"
    case .since: "since"
    case .templates: "templates"
    case .sort: "sort"
    case .text: "text"
    case .throughApp: "throughApp"
    case .throughLink: "throughLink"
    case .uid: "uid"
    case .value: "value"
    case .version: "version"
    case .allCheckedAt: "allCheckedAt"
    case .lastReset: "lastReset"
    case .reset: "reset"
    case .day: "day"
    case .hour: "hour"
    case .hours: "hours"
    case .kind: "kind"
    case .minute: "minute"
    case .weekdays: "weekdays"
    case .zone: "zone"
    }
  }

  /// Each key with its bytes.
  private static let spellings = allCases.map { key in
    (
      key,
      Array(
        UnsafeBufferPointer(start: key.spelling.utf8Start, count: key.spelling.utf8CodeUnitCount))
    )
  }

  /// The key spelled by `bytes`, or nil for any other.
  static func named(_ bytes: ArraySlice<UInt8>) -> FileKey? {
    bytes.withUnsafeBufferPointer { name in
      spellings.first { key, spelling in
        spelling.count == name.count
          && name.baseAddress.map { memcmp(spelling, $0, name.count) == 0 } ?? false
      }?.0
    }
  }

  var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// A position in the file's bytes and the steps of its grammar; each step
/// answers false (or nil) when the bytes are not what it reads, and the
/// whole read is then given up.
private struct Cursor {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// Past `XMLPropertyListWriter.prologue` (which ends with `<plist
  /// version="1.0">`), at the very start.
  mutating func skipPrologue() -> Bool {
    let prologue = XMLPropertyListWriter.prologue
    let count = prologue.utf8CodeUnitCount
    guard position == 0,
      bytes.starts(with: UnsafeBufferPointer(start: prologue.utf8Start, count: count))
    else { return false }
    position = count
    return true
  }

  /// Past `</plist>` and the whitespace after it, at the end.
  mutating func finish() -> Bool {
    guard take("</plist>") else { return false }
    skipWhitespace()
    return position == bytes.count
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        position += 1
      default: return
      }
    }
  }

  /// Past whitespace and then exactly `text`.
  mutating func take(_ text: StaticString) -> Bool {
    skipWhitespace()
    let count = text.utf8CodeUnitCount
    guard bytes.count - position >= count,
      bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + position, text.utf8Start, count) })
        == 0
    else { return false }
    position += count
    return true
  }

  /// The bytes up to the next `<`, which must begin `closing`; none of them
  /// may be `&` (`escaped` says whether the caller resolves them) or `<`.
  mutating func text(closing: StaticString) -> ArraySlice<UInt8>? {
    let start = position
    guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
    position = end
    guard take(closing) else { return nil }
    return bytes[start..<end]
  }

  /// `<dict>`, then for each `<key>` the value `entry` reads (false when it
  /// cannot), then `</dict>`; or `<dict/>`. Each key at most once.
  mutating func dictionary(_ entry: (inout Cursor, FileKey) -> Bool) -> Bool {
    if take("<dict/>") { return true }
    guard take("<dict>") else { return false }
    var seen: UInt64 = 0
    while !take("</dict>") {
      guard take("<key>"), let name = text(closing: "</key>"),
        !name.contains(UInt8(ascii: "&")), let key = FileKey.named(name), seen & key.bit == 0
      else { return false }
      seen |= key.bit
      guard entry(&self, key) else { return false }
    }
    return true
  }

  /// `<array>` of what `element` reads, appended to `elements`, or `<array/>`.
  mutating func array<Element>(_ elements: inout [Element], _ element: (inout Cursor) -> Element?)
    -> Bool
  {
    if take("<array/>") { return true }
    guard take("<array>") else { return false }
    while !take("</array>") {
      guard let next = element(&self) else { return false }
      elements.append(next)
    }
    return true
  }

  /// `<integer>` of an optional `-` and decimal digits that fit an `Int`,
  /// into `value` (which must be nil yet).
  mutating func integer(into value: inout Int?) -> Bool {
    guard value == nil, take("<integer>"), let digits = text(closing: "</integer>"),
      let number = Self.decimal(digits)
    else { return false }
    value = number
    return true
  }

  static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
    var rest = digits[...]
    let negative = rest.first == UInt8(ascii: "-")
    if negative { rest = rest.dropFirst() }
    guard !rest.isEmpty, rest.count <= 19 else { return nil }
    var magnitude: UInt64 = 0
    for byte in rest {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      magnitude = magnitude * 10 + UInt64(byte - UInt8(ascii: "0"))
    }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return nil }
      return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { return nil }
    return Int(magnitude)
  }

  mutating func string(into value: inout String?) -> Bool {
    guard value == nil, let text = string() else { return false }
    value = text
    return true
  }

  /// `<string>` with the four references the writer makes (`&amp;`,
  /// `&lt;`, `&gt;`, `&#13;`), or `<string/>`: its text, its bytes read as
  /// UTF-8 as the general reader reads them.
  mutating func string() -> String? {
    if take("<string/>") { return "" }
    // The general reader refuses a file that is not UTF-8 through and
    // through; only strings hold bytes other than the markup matched here.
    guard take("<string>"), let raw = text(closing: "</string>"),
      let text = String(validating: raw, as: UTF8.self)
    else { return nil }
    guard raw.contains(UInt8(ascii: "&")) else { return text }
    var resolved: [UInt8] = []
    resolved.reserveCapacity(raw.count)
    var index = raw.startIndex
    while index < raw.endIndex {
      let byte = raw[index]
      guard byte == UInt8(ascii: "&") else {
        resolved.append(byte)
        index += 1
        continue
      }
      let rest = raw[index...]
      guard
        let (reference, character) = Self.references.first(where: { reference, _ in
          rest.starts(
            with: UnsafeBufferPointer(
              start: reference.utf8Start, count: reference.utf8CodeUnitCount))
        })
      else { return nil }
      resolved.append(character)
      index += reference.utf8CodeUnitCount
    }
    return String(decoding: resolved, as: UTF8.self)
  }

  /// The references the writer makes, and the byte each stands for.
  static let references: [(StaticString, UInt8)] = [
    ("&amp;", UInt8(ascii: "&")), ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")),
    ("&#13;", UInt8(ascii: "\r")),
  ]

  /// `<true/>` or `<false/>`, into `value` (which must be nil yet).
  mutating func bool(into value: inout Bool?) -> Bool {
    guard value == nil else { return false }
    if take("<true/>") {
      value = true
    } else if take("<false/>") {
      value = false
    } else {
      return false
    }
    return true
  }

  /// A `<date>` into `value` (which must be nil yet).
  mutating func date(into value: inout Date?) -> Bool {
    guard value == nil, let date = date() else { return false }
    value = date
    return true
  }

  /// `<date>` of the form `2026-05-01T09:00:00Z`, read as the general
  /// reader reads it.
  mutating func date() -> Date? {
    guard take("<date>"), let text = text(closing: "</date>"),
      let seconds = PropertyListDate.seconds(iso8601: Substring(decoding: text, as: UTF8.self))
    else { return nil }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }
}
