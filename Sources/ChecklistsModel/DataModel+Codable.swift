/// The file format (docs/data-format.md): a dictionary with `version`,
/// `nextListID`, `nextItemID`, `lists`, and since version 2 `deleted` and
/// `nextDeletionID`. Decoding checks what the model relies on (unique
/// positive ids, counters above them) and re-sorts the lists, since the
/// locale or the file may order them differently.
extension DataModel: Codable {
  /// The newest schema this code reads; older versions are migrated on read.
  package static let currentVersion = 4
  /// Version 3 adds what a backend reading version 2 would drop unseen on
  /// its next write (an item's `notes`, the `templates`), so a file is written as 3 only
  /// when it holds one: such a backend then refuses it as newer
  /// (`NewerVersion`, during a rolling upgrade) instead of losing it, and
  /// reads every other file as before. Version 4 adds a list's reset rule
  /// (`reset`, `lastReset`, `allCheckedAt`) and an item's `recurrence` and
  /// `lastDone`, for the same reason: a version-3 backend would drop them.
  package var formatVersion: Int {
    if hasResetRules || repeats { return 4 }
    func hasNotes(_ items: [ChecklistItem]) -> Bool { items.contains { !$0.notes.isEmpty } }
    let noted =
      lists.contains { hasNotes($0.items) }
      || deletions.contains { deletion in
        deletion.list.map { hasNotes($0.items) } ?? false
          || deletion.items.contains { !$0.item.notes.isEmpty }
      }
    return noted || !templates.isEmpty ? 3 : 2
  }

  /// Whether some item, in a list, a template or Recently Deleted, repeats
  /// or has been done before (version 4: see `formatVersion`).
  var repeats: Bool {
    func repeats(_ items: [ChecklistItem]) -> Bool {
      items.contains { $0.recurrence != nil || $0.lastDone != nil }
    }
    return lists.contains { repeats($0.items) } || templates.contains { repeats($0.items) }
      || deletions.contains { deletion in
        deletion.list.map { repeats($0.items) } ?? false
          || deletion.items.contains { $0.item.recurrence != nil || $0.item.lastDone != nil }
      }
  }

  enum CodingKeys: String, CodingKey {
    case version, nextListID, nextItemID, lists, deleted, nextDeletionID, templates
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
    try DataModel.check(version: try container.decode(Int.self, forKey: .version))
    // Version 1 has no due dates, sort or deletions: each reads as absent
    // (`ChecklistItem`, `Checklist`), and the next change writes version 2.
    try self.init(
      checking: try container.decode([Checklist].self, forKey: .lists),
      deletions: try container.decodeIfPresent([Deletion].self, forKey: .deleted) ?? [],
      nextListID: try container.decode(Int.self, forKey: .nextListID),
      nextItemID: try container.decode(Int.self, forKey: .nextItemID),
      nextDeletionID: try container.decodeIfPresent(Int.self, forKey: .nextDeletionID),
      templates: try container.decodeIfPresent([Checklist].self, forKey: .templates) ?? [])
  }

  /// Throws unless this code reads files of `version`.
  package static func check(version: Int) throws {
    guard version <= DataModel.currentVersion else { throw NewerVersion(version: version) }
    guard version >= 1 else { throw SchemaError(description: "unsupported version \(version)") }
  }

  /// The model of a file's parts, checked as the file is read (whoever
  /// read it: the decoder above, or `ChecklistsXMLReader`'s direct path).
  package init(
    checking lists: [Checklist], deletions: [Deletion], nextListID: Int, nextItemID: Int,
    nextDeletionID: Int?, templates: [Checklist] = []
  ) throws {
    var listIDs = Set<Int>()
    var itemIDs = Set<Int>()
    // A template's ids are a list's and its items': unique among them all.
    for list in lists + templates {
      guard list.id > 0, listIDs.insert(list.id).inserted else {
        throw SchemaError(description: "list id \(list.id) is not positive or not unique")
      }
      for item in list.items {
        guard item.id > 0, itemIDs.insert(item.id).inserted else {
          throw SchemaError(description: "item id \(item.id) is not positive or not unique")
        }
      }
    }
    let deletions = DataModel.restorable(deletions, listIDs: &listIDs, itemIDs: &itemIDs)
    self.init()
    self.nextListID = max(nextListID, (listIDs.max() ?? 0) + 1)
    self.nextItemID = max(nextItemID, (itemIDs.max() ?? 0) + 1)
    self.deletions = deletions
    self.nextDeletionID = max(nextDeletionID ?? 1, (deletions.map(\.id).max() ?? 0) + 1)
    // The decoder grows arrays by doubling; a cached model lives long, so it
    // keeps exactly what it holds (about 1 KiB less for 3 lists of 20 items).
    self.lists = lists.sorted(by: DataModel.displayOrder).map { list in
      var list = list
      list.items = list.items.withUnsafeBufferPointer { Array($0) }
      return list
    }
    self.lists = self.lists.withUnsafeBufferPointer { Array($0) }
    self.templates = templates.sorted(by: DataModel.displayOrder)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(formatVersion, forKey: .version)
    try container.encode(nextListID, forKey: .nextListID)
    try container.encode(nextItemID, forKey: .nextItemID)
    try container.encode(lists, forKey: .lists)
    try container.encode(deletions, forKey: .deleted)
    try container.encode(nextDeletionID, forKey: .nextDeletionID)
    if !templates.isEmpty { try container.encode(templates, forKey: .templates) }
  }

  /// The deletions a restore can give back without two things sharing an
  /// id, oldest first; any other is left out (a hand-edited file, say),
  /// since losing one entry of Recently deleted is better than setting the
  /// whole file aside. Their ids join `listIDs` and `itemIDs`, so that the
  /// counters stay above them.
  private static func restorable(
    _ deletions: [Deletion], listIDs: inout Set<Int>, itemIDs: inout Set<Int>
  ) -> [Deletion] {
    var ids = Set<Int>()
    var kept: [Deletion] = []
    for deletion in deletions {
      let items = deletion.itemIDs
      guard deletion.id > 0, !ids.contains(deletion.id),
        deletion.list.map({ $0.id > 0 && !listIDs.contains($0.id) }) ?? true,
        items.allSatisfy({ $0 > 0 && !itemIDs.contains($0) }), Set(items).count == items.count,
        deletion.items.allSatisfy({ $0.position >= 0 })
      else { continue }
      ids.insert(deletion.id)
      if let list = deletion.list { listIDs.insert(list.id) }
      itemIDs.formUnion(items)
      kept.append(deletion)
    }
    return withinDeletionQuotas(kept)
  }
}
