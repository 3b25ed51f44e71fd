import PropertyList

/// The object graph of an `NSKeyedArchiver` archive, read from its property list without
/// `NSKeyedUnarchiver` (which needs our classes to adopt `NSCoding`, stops the process on a
/// class it was not told about under secure coding, and recurses without end on an
/// object that contains itself).
///
/// An archive is a property list (binary or XML) whose top dictionary holds:
/// - `$archiver`: the archiver's class name, `NSKeyedArchiver`;
/// - `$version`: the format's version, 100000;
/// - `$top`: the root objects by key (`encodeObject:forKey:` on the archiver itself), each
///   a UID; the iOS Checklists app archived its array of lists under `Checklists`
///   (`archivedData(withRootObject:)` would use `root`);
/// - `$objects`: every archived object, numbered by position. Position 0 is always the
///   string `$null`, and UID 0 stands for nil. A string or number an object encodes is
///   usually stored here as it is; an instance of a class is a dictionary holding the
///   keys its `encode(with:)` wrote, with keys that start with `$` escaped by one more
///   `$`, plus `$class`, the UID of a class description: `$classname` (the name the class
///   was archived under: `Checklist`, or with its Swift module, `Checklists.Checklist`)
///   and, unless the name was mapped with `setClassName`, `$classes` (the class and its
///   superclasses, e.g. `["NSMutableArray", "NSArray", "NSObject"]`), sometimes also
///   `$classhints`. Within an instance, a scalar (`encodeBool`, `encodeInteger`,
///   `encodeDouble`) is a plain plist value under its key; an object (`encodeObject`) is a
///   UID. An `NSArray` stores its members as an array of UIDs under `NS.objects`, an
///   `NSDate` its seconds since 2001-01-01 UTC as a real under `NS.time`, and an
///   `NSMutableString` (or an `NSString` archived as an instance) its text under
///   `NS.string`. The archiver gives each object it meets one UID, so an object named
///   twice (an empty Swift array bridged to the one shared empty `NSArray`, a string
///   shared by two items) is stored once and referred to twice.
///
/// What this type refuses, before the app's lists are read: a UID beyond `$objects`
/// ("refers to object 12, which it does not hold"), an instance whose class is not one an
/// app archive holds (`AppArchiveClass`), and an object that contains itself, directly or
/// through others: all checked in one walk from the root without recursion.
struct KeyedArchive {
  let list: PropertyList
  /// The positions in `list` of `$objects`' entries, by UID.
  let objects: [Int]
  /// `$top`: the root objects' keys and the positions of their UIDs.
  let top: [String: Int]
  /// What each object reachable from the walked root is, by UID, once `checkGraph` has
  /// classified it.
  private(set) var archived: [Archived?]

  /// An entry of `$objects`.
  enum Archived {
    /// UID 0, whose entry is the placeholder `$null`. (Another entry that is the string
    /// `$null` is a string someone archived: `NSKeyedUnarchiver` would read it as nil, but
    /// it is the visitor's text.)
    case null
    /// A string or number stored as it is.
    case value(PropertyListObject)
    /// An instance of a class, with the keys it encoded (positions in `list`).
    case instance(AppArchiveClass, [String: Int])

    var kind: String {
      switch self {
      case .null: "empty (null)"
      case .value(let object): object.kind
      case .instance(let archivedClass, _): archivedClass.kind
      }
    }
  }

  /// Checks the archive's header: `$archiver`, `$version`, `$top` and `$objects`.
  ///
  /// - Parameter header: the entries of the plist's top dictionary.
  init(_ list: PropertyList, header: [String: Int]) throws(ImportFailure) {
    self.list = list
    guard let archiver = header["$archiver"], case .string(let name) = list[archiver] else {
      throw ImportFailure(translatable("This archive is damaged: it does not name its archiver."))
    }
    guard name == "NSKeyedArchiver" else {
      throw ImportFailure(
        translatable(
          "This archive was written by “{{name}}”; only archives of NSKeyedArchiver can be read."),
        ["name": .text(Self.shortened(name))])
    }
    guard let version = header["$version"], case .integer(let number) = list[version] else {
      throw ImportFailure(translatable("This archive is damaged: it has no version."))
    }
    guard number == 100_000 else {
      throw ImportFailure(
        translatable(
          "This archive is of version {{version}}; only version 100000, which every NSKeyedArchiver writes, can be read."
        ), ["version": .text(String(number))])
    }
    guard let objectsIndex = header["$objects"], case .array(let objects) = list[objectsIndex],
      let topIndex = header["$top"], case .dictionary(let top) = list[topIndex]
    else {
      throw ImportFailure(
        translatable("This archive is damaged: it lacks its “$objects” or its “$top”."))
    }
    self.objects = objects
    self.top = top
    self.archived = Array(repeating: nil, count: objects.count)
  }

  static func shortened(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "…" : text
  }

  /// The UID that the plist value at `position` holds.
  ///
  /// - Throws: when it is not a UID, or names no entry of `$objects`.
  func uid(at position: Int, _ what: @autoclosure () -> ImportPhrase) throws(ImportFailure)
    -> UInt64
  {
    guard case .uid(let uid) = list[position] else {
      throw ImportFailure(
        translatable("{{subject}} is {{kind}}, where the archive should refer to an object."),
        ["subject": .phrase(what()), "kind": .phrase(ImportPhrase(list[position].kind))])
    }
    guard uid < UInt64(objects.count) else {
      throw ImportFailure(
        translatable("The archive refers to object {{object}}, which it does not hold."),
        ["object": .text(String(uid))])
    }
    return uid
  }

  /// What the entry `uid` of `$objects` is, its class checked; cached by `checkGraph`.
  mutating func entry(_ uid: UInt64) throws(ImportFailure) -> Archived {
    if let known = archived[Int(uid)] { return known }
    let found = try classify(uid)
    archived[Int(uid)] = found
    return found
  }

  private func classify(_ uid: UInt64) throws(ImportFailure) -> Archived {
    if uid == 0 { return .null }
    let object = list[objects[Int(uid)]]
    switch object {
    case .dictionary(let fields):
      guard let classReference = fields["$class"] else {
        throw ImportFailure(
          translatable(
            "This archive is damaged: object {{object}} is a dictionary without a class."),
          ["object": .text(String(uid))])
      }
      let classUID = try self.uid(
        at: classReference,
        ImportPhrase(translatable("The class of object {{object}}"), ["object": .text(String(uid))])
      )
      guard case .dictionary(let description) = list[objects[Int(classUID)]],
        let nameIndex = description["$classname"], case .string(let name) = list[nameIndex]
      else {
        throw ImportFailure(
          translatable(
            "This archive is damaged: the class of object {{object}} (object {{classObject}}) has no name."
          ), ["object": .text(String(uid)), "classObject": .text(String(classUID))])
      }
      guard let archivedClass = AppArchiveClass(archivedName: name) else {
        throw ImportFailure(
          translatable(
            "The archive holds an object of class “{{name}}”, which the Checklists app does not archive (it archives Checklist, ChecklistItem, NSArray, NSString and NSDate)."
          ), ["name": .text(Self.shortened(name))])
      }
      return .instance(archivedClass, fields)
    default:
      return .value(object)
    }
  }

  /// Walks every object reachable from `root` once, without recursion: each UID must
  /// name an entry, each instance must be of a known class, and no object may contain
  /// itself. Work in proportion to the objects and references reached.
  ///
  /// - Throws: the first UID out of range, unknown class, or cycle met.
  mutating func checkGraph(from root: UInt64) throws(ImportFailure) {
    enum State: UInt8 { case unseen, onPath, finished }
    var state = [State](repeating: .unseen, count: objects.count)
    var path: [(uid: UInt64, members: [UInt64], next: Int)] = []
    func enter(_ uid: UInt64) throws(ImportFailure) {
      state[Int(uid)] = .onPath
      path.append((uid, try references(of: uid), 0))
    }
    try enter(root)
    while let last = path.last {
      guard last.next < last.members.count else {
        state[Int(last.uid)] = .finished
        path.removeLast()
        continue
      }
      let member = last.members[last.next]
      path[path.count - 1].next += 1
      if state[Int(member)] == .finished { continue }
      if state[Int(member)] == .onPath {
        let start = path.firstIndex { $0.uid == member }!
        let through = path[(start + 1)...].map { String($0.uid) }
        if through.isEmpty {
          throw ImportFailure(
            translatable("The archive is circular: object {{object}} contains itself."),
            ["object": .text(String(member))])
        }
        throw ImportFailure(
          translatable(
            "The archive is circular: object {{object}} contains itself (through {{objects}})."),
          [
            "object": .text(String(member)),
            "objects": .phrase(
              ImportPhrase(
                through.count == 1
                  ? translatable("object {{object}}") : translatable("objects {{object}}"),
                ["object": .text(through.joined(separator: ", "))])),
          ])
      }
      try enter(member)
    }
  }

  /// The UIDs an entry refers to: an instance's UIDs, and those in arrays under its keys
  /// (`NS.objects`), but not its `$class`.
  private mutating func references(of uid: UInt64) throws(ImportFailure) -> [UInt64] {
    guard case .instance(_, let fields) = try entry(uid) else { return [] }
    var result: [UInt64] = []
    for (key, position) in fields where key != "$class" {
      switch list[position] {
      case .uid:
        result.append(
          try self.uid(
            at: position,
            ImportPhrase(
              translatable("“{{member}}” of object {{object}}"),
              ["member": .text(key), "object": .text(String(uid))])))
      case .array(let members):
        for member in members where list[member].isUID {
          result.append(
            try self.uid(
              at: member,
              ImportPhrase(
                translatable("A member of object {{object}}"), ["object": .text(String(uid))])))
        }
      default: continue
      }
    }
    return result
  }
}

extension PropertyListObject {
  var isUID: Bool {
    if case .uid = self { true } else { false }
  }

  var isInteger: Bool {
    if case .integer = self { true } else { false }
  }
}

/// The classes whose instances an archive of the iOS Checklists app holds.
enum AppArchiveClass: Equatable {
  /// `NSArray` or `NSMutableArray`: the lists, and each list's items.
  case array
  /// `NSString` or `NSMutableString` archived as an instance (`NS.string`).
  case string
  /// `NSDate`: a due date (`NS.time`).
  case date
  /// The app's `Checklist`: `Name`, `Items`, `IconName`.
  case checklist
  /// The app's `ChecklistItem`: `Text`, `Checked`, `DueDate`, `ShouldRemind`, `ItemID`.
  case checklistItem

  /// The class archived as `name`: Foundation's names as they are, the app's with or
  /// without the Swift module that `NSStringFromClass` puts before a Swift class's name
  /// (`Checklists.Checklist`; the Objective-C editions have none).
  init?(archivedName name: String) {
    switch name {
    case "NSArray", "NSMutableArray": self = .array
    case "NSString", "NSMutableString": self = .string
    case "NSDate": self = .date
    default:
      var unqualified = Substring(name)
      if let dot = name.lastIndex(of: ".") {
        guard Self.isModuleName(name[..<dot]) else { return nil }
        unqualified = name[name.index(after: dot)...]
      }
      switch unqualified {
      case "Checklist": self = .checklist
      case "ChecklistItem": self = .checklistItem
      default: return nil
      }
    }
  }

  /// A Swift module's name: an identifier of ASCII letters, digits and underscores.
  static func isModuleName(_ name: Substring) -> Bool {
    guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return false }
    return name.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
        true
      default: false
      }
    }
  }

  var kind: String {
    switch self {
    case .array: "an array"
    case .string: "a string"
    case .date: "a date"
    case .checklist: "a checklist"
    case .checklistItem: "a checklist item"
    }
  }
}
