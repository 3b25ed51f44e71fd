import Foundation

/// Checklists files of the iOS app, written the way the app wrote them, for the tests,
/// the end-to-end tests (through `app-archive-writer`) and `bench-web`.
///
/// A description (`AppArchiveFixture.Description`, JSON through the writer) names the
/// lists; `bytes(_:)` writes them as the keyed archive of the app's Objective-C and
/// NSCoder editions, with Foundation's own `NSKeyedArchiver`, or as the plain property
/// list of its Codable editions, with `PropertyListEncoder`; binary or XML.
package enum AppArchiveFixture {
  /// What to write. `Tests/EndToEnd/app_fixtures.py` reads the same JSON.
  package struct Description: Codable, Sendable {
    /// `keyed-archive` or `codable`.
    package var form: Form
    /// `binary` or `xml`.
    package var format: Format
    /// In a keyed archive, the Swift module before the class names (`Checklists` gives
    /// `Checklists.Checklist`), or nil for the Objective-C names (`Checklist`).
    package var classPrefix: String?
    package var lists: [List]

    package init(form: Form, format: Format, classPrefix: String? = nil, lists: [List]) {
      self.form = form
      self.format = format
      self.classPrefix = classPrefix
      self.lists = lists
    }
  }

  package enum Form: String, Codable, Sendable, CaseIterable {
    case keyedArchive = "keyed-archive"
    case codable
  }

  package enum Format: String, Codable, Sendable, CaseIterable {
    case binary, xml

    var propertyListFormat: PropertyListSerialization.PropertyListFormat {
      self == .xml ? .xml : .binary
    }
  }

  package struct List: Codable, Sendable {
    package var name: String
    /// The app's icon name: "No Icon", "Groceries", …
    package var icon: String
    package var items: [Item]

    package init(name: String, icon: String, items: [Item]) {
      self.name = name
      self.icon = icon
      self.items = items
    }
  }

  package struct Item: Codable, Sendable {
    package var text: String
    package var checked: Bool
    /// Seconds since 1970-01-01 UTC, or nil for none.
    package var dueDate: Double?
    package var shouldRemind: Bool
    package var itemID: Int

    package init(
      text: String, checked: Bool = false, dueDate: Double? = nil, shouldRemind: Bool = false,
      itemID: Int = 0
    ) {
      self.text = text
      self.checked = checked
      self.dueDate = dueDate
      self.shouldRemind = shouldRemind
      self.itemID = itemID
    }
  }

  /// The file `description` asks for.
  package static func bytes(_ description: Description) throws -> [UInt8] {
    switch description.form {
    case .keyedArchive:
      try keyedArchive(
        description.lists, format: description.format, classPrefix: description.classPrefix)
    case .codable:
      try codablePlist(description.lists, format: description.format)
    }
  }

  // MARK: the keyed archive

  /// The archive of the app's Objective-C and NSCoder editions, written by Foundation's
  /// `NSKeyedArchiver`: the lists as `[Checklist]` under the root key `Checklists`.
  ///
  /// The app's classes were archived under their own names (`Checklist`, or
  /// `Checklists.Checklist` from Swift). `setClassName(_:for:)` asks for those names, but
  /// on Linux it has no effect: swift-corelibs-foundation files the name under
  /// `String(describing: type(of: cls))` ("FixtureList.Type") and looks it up under
  /// `String(reflecting: cls)` ("AppArchiveFixture.FixtureList"). So the class
  /// descriptions that still name our classes are renamed afterwards, through
  /// `PropertyListSerialization` (which keeps the UIDs), in the same format.
  package static func keyedArchive(_ lists: [List], format: Format, classPrefix: String?) throws
    -> [UInt8]
  {
    let prefix = classPrefix.map { $0 + "." } ?? ""
    let names = [
      NSStringFromClass(FixtureList.self): prefix + "Checklist",
      NSStringFromClass(FixtureItem.self): prefix + "ChecklistItem",
    ]
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.outputFormat = format.propertyListFormat
    archiver.setClassName(names[NSStringFromClass(FixtureList.self)], for: FixtureList.self)
    archiver.setClassName(names[NSStringFromClass(FixtureItem.self)], for: FixtureItem.self)
    archiver.encode(lists.map(FixtureList.init), forKey: "Checklists")
    archiver.finishEncoding()
    return try renamingClasses(in: archiver.encodedData, names, format: format)
  }

  static func renamingClasses(in data: Data, _ names: [String: String], format: Format) throws
    -> [UInt8]
  {
    var read = PropertyListSerialization.PropertyListFormat.binary
    guard
      var archive = try PropertyListSerialization.propertyList(from: data, format: &read)
        as? [String: Any], var objects = archive["$objects"] as? [Any]
    else { throw FixtureError("NSKeyedArchiver wrote no $objects") }
    for (index, object) in objects.enumerated() {
      guard var description = object as? [String: Any],
        let name = description["$classname"] as? String, let renamed = names[name]
      else { continue }
      description["$classname"] = renamed
      if let classes = description["$classes"] as? [String] {
        description["$classes"] = classes.map { names[$0] ?? $0 }
      }
      objects[index] = description
    }
    archive["$objects"] = objects
    return [UInt8](
      try PropertyListSerialization.data(
        fromPropertyList: archive, format: format.propertyListFormat, options: 0))
  }

  // MARK: the Codable plist

  /// The plist of the app's Codable editions, as its `PropertyListEncoder` wrote it.
  package static func codablePlist(_ lists: [List], format: Format) throws -> [UInt8] {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format.propertyListFormat
    return [UInt8](try encoder.encode(lists.map(CodableList.init)))
  }

  struct CodableList: Encodable {
    var name: String
    var items: [CodableItem]
    var iconName: String

    init(_ list: List) {
      name = list.name
      items = list.items.map(CodableItem.init)
      iconName = list.icon
    }
  }

  struct CodableItem: Encodable {
    var text: String
    var checked: Bool
    var dueDate: Date?
    var shouldRemind: Bool
    var itemID: Int

    init(_ item: Item) {
      text = item.text
      checked = item.checked
      dueDate = item.dueDate.map(Date.init(timeIntervalSince1970:))
      shouldRemind = item.shouldRemind
      itemID = item.itemID
    }
  }

  package struct FixtureError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
  }
}

/// The app's `Checklist`, encoding exactly its keys: `Name`, `Items`, `IconName`.
final class FixtureList: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let name: String
  let items: [FixtureItem]
  let iconName: String

  init(_ list: AppArchiveFixture.List) {
    name = list.name
    items = list.items.map(FixtureItem.init)
    iconName = list.icon
  }

  /// Only ever archived.
  init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "Name")
    coder.encode(items, forKey: "Items")
    coder.encode(iconName, forKey: "IconName")
  }
}

/// The app's `ChecklistItem`: `Text`, `Checked`, `DueDate`, `ShouldRemind`, `ItemID`.
final class FixtureItem: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let item: AppArchiveFixture.Item

  init(_ item: AppArchiveFixture.Item) {
    self.item = item
  }

  /// Only ever archived.
  init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(item.text, forKey: "Text")
    coder.encode(item.checked, forKey: "Checked")
    coder.encode(item.dueDate.map(Date.init(timeIntervalSince1970:)), forKey: "DueDate")
    coder.encode(item.shouldRemind, forKey: "ShouldRemind")
    coder.encode(item.itemID, forKey: "ItemID")
  }
}
