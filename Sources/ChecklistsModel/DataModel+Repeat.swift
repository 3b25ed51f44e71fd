import Foundation

/// When and where an item is checked: what a repeating item needs to move
/// to its next due date (the owner's zone keeps its wall-clock time).
package struct CheckMoment: Sendable {
  package var now: Date
  package var zone: TimeZone

  package init(now: Date, zone: TimeZone) {
    self.now = now
    self.zone = zone
  }
}

extension ChecklistItem {
  /// Whether checking the item moves it on rather than checks it: a rule
  /// within the subset, and a due date to move.
  package var movesWhenChecked: Bool {
    recurrence?.rule != nil && dueDate != nil
  }

  /// The item checked at `moment`: a repeating one moves to its next due
  /// date, unchecked, its last done noted; one whose `COUNT` or `UNTIL`
  /// ends here is checked and repeats no more; any other is checked.
  package func checked(at moment: CheckMoment?) -> ChecklistItem {
    var item = self
    guard let moment, movesWhenChecked, let recurrence, let dueDate else {
      item.checked = true
      return item
    }
    item.lastDone = DueDate.wholeSeconds(moment.now)
    if let next = recurrence.advanced(from: dueDate, in: moment.zone) {
      item.dueDate = next.dueDate
      item.recurrence = next.recurrence
      item.checked = false
    } else {
      item.recurrence = nil
      item.checked = true
    }
    return item
  }
}

extension DataModel {
  /// Checks the item at `index` of the list at `row` (see
  /// `ChecklistItem.checked(at:)`); returns whether it is now checked.
  mutating func check(row: Int, index: Int, at moment: CheckMoment?) -> Bool {
    lists[row].items[index] = lists[row].items[index].checked(at: moment)
    return lists[row].items[index].checked
  }
}
