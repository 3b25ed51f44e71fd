import Foundation

/// An item's fields as a calendar app writes them over CalDAV (Interchange's
/// `CalendarTodo` makes them from a `VTODO`).
package struct CalendarItemFields: Sendable, Equatable {
  package var text: String
  package var checked: Bool
  package var dueDate: Date?
  package var shouldRemind: Bool
  /// The to-do's `DESCRIPTION`, empty for none.
  package var notes: String
  package var calendar: CalendarData
  /// The to-do's `RRULE`, nil for none.
  package var recurrence: Recurrence?

  package init(
    text: String, checked: Bool, dueDate: Date?, shouldRemind: Bool, notes: String = "",
    calendar: CalendarData, recurrence: Recurrence? = nil
  ) {
    self.text = text
    self.checked = checked
    self.dueDate = dueDate
    self.shouldRemind = shouldRemind
    self.notes = notes
    self.calendar = calendar
    self.recurrence = recurrence
  }
}

extension DataModel {
  /// Adds an item a calendar app wrote, at `position` in its list (clamped;
  /// last when nil), within the same limits as an item typed on the web.
  ///
  /// - Returns: the new item's id.
  @discardableResult
  package mutating func addItem(
    _ fields: CalendarItemFields, toList listID: Int, at position: Int? = nil
  ) throws(ChecklistsError) -> Int {
    let item = try Self.item(from: fields, id: nextItemID)
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    guard lists[row].items.count < Limits.maximumItemsPerList else {
      throw .tooManyItems(limit: Limits.maximumItemsPerList)
    }
    nextItemID += 1
    let count = lists[row].items.count
    lists[row].items.insert(item, at: min(max(position ?? count, 0), count))
    return item.id
  }

  /// Replaces every field of an item with what a calendar app wrote, and
  /// moves it to `position` (clamped) when one is given. The item's last
  /// done stays (no to-do line holds it); a repeating item the app marks
  /// completed moves on, with `moment`, as a checked one does on the web.
  package mutating func replaceItem(
    id: Int, inList listID: Int, with fields: CalendarItemFields, at position: Int? = nil,
    moment: CheckMoment? = nil
  ) throws(ChecklistsError) {
    var item = try Self.item(from: fields, id: id)
    let (row, index) = try locate(item: id, inList: listID)
    item.lastDone = lists[row].items[index].lastDone
    if item.checked, !lists[row].items[index].checked, item.movesWhenChecked {
      item = item.checked(at: moment)
    }
    guard let position else {
      lists[row].items[index] = item
      return
    }
    lists[row].items.remove(at: index)
    let count = lists[row].items.count
    lists[row].items.insert(item, at: min(max(position, 0), count))
  }

  /// The item `fields` make under `id`, cleaned and checked as `addItem`
  /// and `replaceItem` store it.
  package static func item(from fields: CalendarItemFields, id: Int) throws(ChecklistsError)
    -> ChecklistItem
  {
    let text = try TextInput.clean(fields.text)
    let notes = try NoteInput.clean(fields.notes)
    if let dueDate = fields.dueDate, !DueDate.range.contains(dueDate) {
      throw .dueDateOutOfRange
    }
    return ChecklistItem(
      id: id, text: text, checked: fields.checked,
      dueDate: fields.dueDate.map(DueDate.wholeSeconds),
      shouldRemind: fields.shouldRemind, notes: notes, calendar: fields.calendar,
      recurrence: fields.recurrence)
  }
}
