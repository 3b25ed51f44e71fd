/// The visitor's own order of a list's items, the order a list is shown in,
/// and the changes of every item at once (reuse a list, clear it).
extension DataModel {
  /// Where a moved item goes, next to another item of the same list.
  package enum ItemPlace: Sendable, Equatable {
    case before(itemID: Int)
    case after(itemID: Int)
  }

  /// Moves an item next to another one of its list. Moving an item next to
  /// itself, or where it already is, changes nothing; so does sending the
  /// same move twice.
  package mutating func moveItem(id: Int, inList listID: Int, to place: ItemPlace)
    throws(ChecklistsError)
  {
    let (row, index) = try locate(item: id, inList: listID)
    let targetID: Int
    switch place {
    case .before(let other), .after(let other): targetID = other
    }
    guard targetID != id else { return }
    guard lists[row].index(ofItem: targetID) != nil else { throw .noSuchItem(targetID) }
    let item = lists[row].items.remove(at: index)
    let target = lists[row].index(ofItem: targetID)!
    switch place {
    case .before: lists[row].items.insert(item, at: target)
    case .after: lists[row].items.insert(item, at: target + 1)
    }
  }

  /// Checks (`true`) or unchecks every item of a list: one change. With
  /// `moment`, each repeating item checked moves on (`toggleItem`).
  package mutating func setAllItems(
    inList listID: Int, checked: Bool, at moment: CheckMoment? = nil
  ) throws(ChecklistsError) {
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    for index in lists[row].items.indices where lists[row].items[index].checked != checked {
      if checked {
        _ = check(row: row, index: index, at: moment)
      } else {
        lists[row].items[index].checked = false
      }
    }
  }

  /// Shows a list in its own order or by due date; remembered with the list.
  package mutating func setSort(_ sort: ItemSort, ofList listID: Int) throws(ChecklistsError) {
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    lists[row].sort = sort
  }
}
