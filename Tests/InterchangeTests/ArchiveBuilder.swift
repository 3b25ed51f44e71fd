import TestSupport

/// Assembles a keyed archive object by object, as `NSKeyedArchiver` lays one out, so a
/// test can write exactly the damage it refuses: a UID past `$objects`, an object that
/// contains itself, a class the app never archived, a value of the wrong type.
struct ArchiveBuilder {
  var objects: [TestPlist] = [.string("$null")]
  var classes: [String: UInt64] = [:]
  /// The module before the app's class names, or "" for the Objective-C names.
  var prefix = ""

  /// Adds `object` to `$objects`; returns its UID.
  @discardableResult
  mutating func add(_ object: TestPlist) -> UInt64 {
    objects.append(object)
    return UInt64(objects.count - 1)
  }

  /// A slot to fill later with `set`, for an object that refers to one added after it.
  mutating func reserve() -> UInt64 { add(.string("$null")) }

  mutating func set(_ uid: UInt64, _ object: TestPlist) { objects[Int(uid)] = object }

  /// The UID of the class description of `name` (with `$classes` ending in NSObject).
  mutating func classUID(_ name: String, superclasses: [String] = []) -> UInt64 {
    if let known = classes[name] { return known }
    let uid = add(
      .dict([
        "$classname": .string(name),
        "$classes": .array(([name] + superclasses + ["NSObject"]).map(TestPlist.string)),
      ]))
    classes[name] = uid
    return uid
  }

  /// An instance of `className` holding `fields`, plus its `$class`.
  mutating func instanceObject(_ className: String, _ fields: [TestPlist.Entry]) -> TestPlist {
    let classUID = classUID(className)
    return .dictionary(fields + [TestPlist.Entry(key: "$class", value: .uid(classUID))])
  }

  @discardableResult
  mutating func instance(_ className: String, _ fields: [TestPlist.Entry]) -> UInt64 {
    add(instanceObject(className, fields))
  }

  mutating func arrayObject(_ members: [UInt64]) -> TestPlist {
    instanceObject(
      "NSMutableArray", [.init(key: "NS.objects", value: .array(members.map(TestPlist.uid)))])
  }

  mutating func array(_ members: [UInt64]) -> UInt64 { add(arrayObject(members)) }

  mutating func string(_ text: String) -> UInt64 { add(.string(text)) }

  mutating func listObject(name: String, icon: String = "Folder", items: UInt64) -> TestPlist {
    let nameUID = string(name)
    let iconUID = string(icon)
    return instanceObject(
      prefix + "Checklist",
      [
        .init(key: "Name", value: .uid(nameUID)), .init(key: "Items", value: .uid(items)),
        .init(key: "IconName", value: .uid(iconUID)),
      ])
  }

  mutating func list(name: String, icon: String = "Folder", items: [UInt64]) -> UInt64 {
    let itemsUID = array(items)
    return add(listObject(name: name, icon: icon, items: itemsUID))
  }

  /// An item with the fields the app wrote; `extra` replaces or adds fields.
  mutating func item(
    _ text: String, checked: Bool = false, due: Double? = nil, remind: Bool = false,
    id: Int64 = 1, replacing extra: [TestPlist.Entry] = []
  ) -> UInt64 {
    let textUID = string(text)
    var dueUID: UInt64 = 0
    if let due { dueUID = instance("NSDate", [.init(key: "NS.time", value: .real(due))]) }
    var fields: [TestPlist.Entry] = [
      .init(key: "Text", value: .uid(textUID)), .init(key: "Checked", value: .bool(checked)),
      .init(key: "DueDate", value: .uid(dueUID)), .init(key: "ShouldRemind", value: .bool(remind)),
      .init(key: "ItemID", value: .integer(id)),
    ]
    for entry in extra {
      fields.removeAll { $0.key == entry.key }
      fields.append(entry)
    }
    return instance(prefix + "ChecklistItem", fields)
  }

  /// The archive, with `root` under `$top`'s `Checklists`.
  func plist(root: UInt64, rootKey: String = "Checklists") -> TestPlist {
    .dict([
      "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
      "$top": .dict([rootKey: .uid(root)]), "$objects": .array(objects),
    ])
  }
}
