import Foundation

/// Changes that may arrive twice. A browser re-sends a form when it cannot
/// tell whether the first one arrived (the enhancement script falls back to
/// an ordinary submission after a failed `fetch`, a visitor presses reload
/// on a timed-out post), and the first may well have been applied. These
/// make the second a no-op, from what the visitor's file holds, so it holds
/// in every process and after a restart.
extension DataModel {
  /// Adds an item unless this very add was applied already.
  ///
  /// `formState` is the `nextItemID` the add-item form was rendered with
  /// (every rendering of a list carries it). Ids only grow, so an item of
  /// this list with an id at or above it and the same text was added since
  /// that rendering: by this form, sent before. A genuine second add of the
  /// same text comes from a page rendered after the first one, with a
  /// higher `formState`, and is added. Nil (a page rendered before forms
  /// carried it) adds as before.
  ///
  /// - Returns: the id of the item added, or of the one added before.
  @discardableResult
  package mutating func addItem(text: String, toList listID: Int, formState: Int?)
    throws(ChecklistsError) -> Int
  {
    if let formState {
      let cleaned = try TextInput.clean(text)
      guard let list = checklist(id: listID) else { throw .noSuchList(listID) }
      if let applied = list.items.last(where: { $0.id >= formState && $0.text == cleaned }) {
        return applied.id
      }
    }
    return try addItem(text: text, toList: listID)
  }

  /// The `formState` of an add form on a page that shows one list and
  /// nothing else (a shared list's): one past the highest id among the
  /// list's items. An item added from that page gets an id at or above it,
  /// as it would above `nextItemID`, so a re-sent add is still a no-op; but
  /// it moves only with this list's items, so it says nothing of the
  /// owner's other lists (`nextItemID` grows with every item added
  /// anywhere).
  package func addFormState(ofList listID: Int) -> Int? {
    guard let list = checklist(id: listID) else { return nil }
    return (list.items.lazy.map(\.id).max() ?? 0) + 1
  }

  /// Gives an item the checkmark the visitor asked for: sending the state,
  /// not "the other one", makes a second delivery harmless, where a second
  /// toggle would undo the first.
  ///
  /// A repeating item checked moves on unchecked (`toggleItem`), so asking
  /// again would move it again: `shownDue`, the due date the page showed
  /// it with, makes the second a no-op once the item has moved past it.
  package mutating func setItem(
    id: Int, inList listID: Int, checked: Bool, at moment: CheckMoment? = nil,
    shownDue: Date? = nil
  ) throws(ChecklistsError) {
    guard let list = checklist(id: listID) else { throw .noSuchList(listID) }
    guard let item = list.item(id: id) else { throw .noSuchItem(id) }
    if checked, moment != nil, item.movesWhenChecked, let shownDue, shownDue != item.dueDate {
      return
    }
    if item.checked != checked { try toggleItem(id: id, inList: listID, at: moment) }
  }
}
