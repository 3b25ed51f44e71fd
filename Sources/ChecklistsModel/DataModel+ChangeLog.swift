extension DataModel {
  /// Records in each list's `ChangeLog` what changed from `stored` (the
  /// model as it was stored): one revision per list whose name or items
  /// differ, naming every item resource made, changed, moved (its place is
  /// part of what an app reads) or removed. A list that `stored` did not
  /// have starts with no revision: no app can hold a token of it.
  package mutating func recordChanges(since stored: DataModel?) {
    guard let stored else { return }
    var before: [Int: Checklist] = [:]
    for list in stored.lists { before[list.id] = list }
    for index in lists.indices {
      guard let old = before[lists[index].id] else { continue }
      guard let names = Self.changedResources(from: old, to: lists[index]) else { continue }
      lists[index].changes.record(names)
    }
  }

  /// The resources changed from `old` to `new` (a version of the same
  /// list), or nil when neither its name nor its items changed.
  static func changedResources(from old: Checklist, to new: Checklist) -> [String]? {
    guard old.items != new.items || old.name != new.name else { return nil }
    var was: [Int: (position: Int, item: ChecklistItem)] = [:]
    for (position, item) in old.items.enumerated() { was[item.id] = (position, item) }
    var names: [String] = []
    var kept = Set<String>()
    for (position, item) in new.items.enumerated() {
      kept.insert(item.resourceName)
      if let previous = was.removeValue(forKey: item.id), previous.position == position,
        previous.item == item
      {
        continue
      }
      names.append(item.resourceName)
    }
    // What went, and a resource an item no longer goes by.
    for item in old.items where !kept.contains(item.resourceName) {
      names.append(item.resourceName)
    }
    return names
  }
}
