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
      switch Self.changedResources(from: old, to: lists[index]) {
      case .unchanged: continue
      case .named(let names): lists[index].changes.record(names)
      case .tooMany: lists[index].changes.recordTooMany()
      }
    }
  }

  /// What changed between two versions of a list.
  enum ResourceChanges: Equatable {
    case unchanged
    case named([String])
    /// More resources than `ChangeLog.capacity`: named none, so that a
    /// change of every item (Check all) costs no name.
    case tooMany
  }

  /// The resources changed from `old` to `new` (a version of the same
  /// list). Items in the same places (an edit, a check, Check all) are
  /// compared place by place; otherwise by id.
  static func changedResources(from old: Checklist, to new: Checklist) -> ResourceChanges {
    guard old.items != new.items || old.name != new.name else { return .unchanged }
    let limit = ChangeLog.capacity
    if old.items.count == new.items.count,
      zip(old.items, new.items).allSatisfy({ $0.id == $1.id })
    {
      var changed: [Int] = []
      for index in new.items.indices where old.items[index] != new.items[index] {
        changed.append(index)
        if changed.count > limit { return .tooMany }
      }
      var names: [String] = []
      for index in changed {
        let (was, now) = (old.items[index].resourceName, new.items[index].resourceName)
        names.append(now)
        if was != now { names.append(was) }
      }
      return names.count > limit ? .tooMany : .named(names)
    }
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
      if names.count > limit { return .tooMany }
    }
    // What went, and a resource an item no longer goes by.
    for item in old.items where !kept.contains(item.resourceName) {
      names.append(item.resourceName)
      if names.count > limit { return .tooMany }
    }
    return .named(names)
  }
}
