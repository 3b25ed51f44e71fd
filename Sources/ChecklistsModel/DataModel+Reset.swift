import Foundation

/// Scheduled resets (issue 30): applied by whoever reads or writes the
/// owner's lists first after a boundary (the store's load and its one write
/// path call `applyDueResets(at:)`), with no process of its own; once per
/// boundary since the boundary applied is written with the unchecked items,
/// in the same conditional write.
extension DataModel {
  /// The earliest moment a list of this model is due to be reset; nil when
  /// no list has a rule that waits for a moment.
  package var nextResetDue: Date? {
    var earliest: Date?
    for list in lists {
      if let due = list.reset?.due, earliest.map({ due < $0 }) ?? true { earliest = due }
    }
    return earliest
  }

  /// Whether some list is due to be reset at `now`.
  package func hasResetDue(at now: Date) -> Bool {
    nextResetDue.map { $0 <= now } ?? false
  }

  /// Resets every list whose boundary has passed at `now`: unchecks its
  /// items and records the latest boundary passed. Returns the ids of the
  /// lists reset.
  @discardableResult
  package mutating func applyDueResets(at now: Date) -> [Int] {
    guard hasResetDue(at: now) else { return [] }
    var reset: [Int] = []
    for row in lists.indices {
      guard let boundary = lists[row].reset?.passedBoundary(at: now) else { continue }
      for index in lists[row].items.indices where lists[row].items[index].checked {
        lists[row].items[index].checked = false
      }
      lists[row].reset?.applied(boundary)
      reset.append(lists[row].id)
    }
    return reset
  }

  /// After a change, on the write path: starts the rules not started yet
  /// (from `now`), and notes for `afterAllChecked` rules when every item
  /// became checked.
  package mutating func settleResets(at now: Date) {
    for row in lists.indices where lists[row].reset != nil {
      let items = lists[row].items
      let allChecked = !items.isEmpty && !items.contains { !$0.checked }
      _ = lists[row].reset?.settle(allChecked: allChecked, at: now)
    }
  }

  /// Sets or removes a list's reset rule. The same rule again changes
  /// nothing (its boundary applied is kept); another starts afresh when
  /// the change is written (`settleResets(at:)`).
  package mutating func setResetRule(_ rule: ResetRule?, ofList id: Int) throws(ChecklistsError) {
    guard let row = row(ofList: id) else { throw .noSuchList(id) }
    guard lists[row].reset?.rule != rule else { return }
    lists[row].reset = rule.map { ScheduledReset(rule: $0) }
  }

  /// Whether some list, template or deleted list has a reset rule (the
  /// file is then written as version 4: see `formatVersion`).
  var hasResetRules: Bool {
    lists.contains { $0.reset != nil } || templates.contains { $0.reset != nil }
      || deletions.contains { $0.list?.reset != nil }
  }
}
