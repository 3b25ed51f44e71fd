import Foundation

/// Everything one visitor owns: their checklists, in display order, and the
/// counters that make ids unique for good.
package struct DataModel: Sendable, Equatable {
  /// Always in display order: by name (locale-aware, case-insensitive,
  /// numbers by value), equal names by id.
  package internal(set) var lists: [Checklist]
  /// The id the next new list gets; ids are never reused.
  package internal(set) var nextListID: Int
  /// The id the next new item gets (shared by all lists); never reused.
  package internal(set) var nextItemID: Int
  /// What was deleted in the last `deletionsKeptFor`, oldest first: at
  /// most `Limits.maximumDeletions` of the owner's own, and
  /// `Limits.maximumLinkDeletionsPerList` made through each list's links.
  package internal(set) var deletions: [Deletion]
  /// The id the next deletion gets; never reused.
  package internal(set) var nextDeletionID: Int
  /// Lists kept to start new ones from (New List from a template), in
  /// display order: never shown as lists, never in the calendar or over
  /// CalDAV. Their ids are list ids, their items' item ids.
  package internal(set) var templates: [Checklist]

  /// An empty model.
  package init() {
    lists = []
    nextListID = 1
    nextItemID = 1
    deletions = []
    nextDeletionID = 1
    templates = []
  }

  /// What a brand-new visitor gets: one empty list named `name` ("List"
  /// in English; the web layer passes the visitor's language's word) with
  /// the icon a new list gets (Folder).
  package static func firstRun(name: String = firstListName) -> DataModel {
    var model = DataModel()
    model.insert(Checklist(id: model.takeListID(), name: name))
    return model
  }

  /// The first-run list's English name.
  package static let firstListName = "List"

  // MARK: Reading

  /// The list with this id, if any.
  package func checklist(id: Int) -> Checklist? {
    lists.first { $0.id == id }
  }

  /// The row of this list on All Lists, if it exists.
  package func row(ofList id: Int) -> Int? {
    lists.firstIndex { $0.id == id }
  }

  /// The list shown at this row on All Lists; nil for any row out of range.
  package func checklist(atRow row: Int) -> Checklist? {
    lists.indices.contains(row) ? lists[row] : nil
  }

  // MARK: Lists

  /// Adds a list and returns its id.
  @discardableResult
  package mutating func addList(name: String, icon: ChecklistIcon) throws(ChecklistsError) -> Int {
    let name = try TextInput.clean(name)
    guard lists.count < Limits.maximumLists else { throw .tooManyLists(limit: Limits.maximumLists) }
    let id = takeListID()
    insert(Checklist(id: id, name: name, icon: icon))
    return id
  }

  /// Renames a list and sets its icon; it moves to its new row.
  package mutating func updateList(id: Int, name: String, icon: ChecklistIcon)
    throws(ChecklistsError)
  {
    let name = try TextInput.clean(name)
    guard let row = row(ofList: id) else { throw .noSuchList(id) }
    var list = lists.remove(at: row)
    list.name = name
    list.icon = icon
    insert(list)
  }

  /// Deletes a list and its items; Recently deleted keeps it.
  ///
  /// - Parameter deleter: who deletes it (see `deleteItem`).
  /// - Returns: the id of the deletion, which `restore(deletion:)` undoes.
  @discardableResult
  package mutating func deleteList(id: Int, at now: Date, by deleter: Deleter = .owner)
    throws(ChecklistsError) -> Int
  {
    guard let row = row(ofList: id) else { throw .noSuchList(id) }
    let list = lists.remove(at: row)
    return record(listID: id, listName: list.name, list: list, items: [], at: now, by: deleter)
  }

  // MARK: Items

  /// Appends an item to a list and returns its id.
  @discardableResult
  package mutating func addItem(text: String, toList listID: Int) throws(ChecklistsError) -> Int {
    let text = try TextInput.clean(text)
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    guard lists[row].items.count < Limits.maximumItemsPerList else {
      throw .tooManyItems(limit: Limits.maximumItemsPerList)
    }
    let id = nextItemID
    nextItemID += 1
    lists[row].items.append(ChecklistItem(id: id, text: text))
    return id
  }

  /// Replaces an item's text.
  package mutating func editItem(id: Int, inList listID: Int, text: String) throws(ChecklistsError)
  {
    let text = try TextInput.clean(text)
    let (row, index) = try locate(item: id, inList: listID)
    lists[row].items[index].text = text
  }

  /// Replaces an item's text, due date (whole seconds), Remind me and,
  /// unless `notes` is nil (a form from before notes, which must not erase
  /// one), its note.
  ///
  /// `recurrence`, when given, replaces how the item repeats (`.some(nil)`:
  /// it no longer does); nil leaves it (a form without the Repeat fields).
  package mutating func editItem(
    id: Int, inList listID: Int, text: String, dueDate: Date?, shouldRemind: Bool,
    notes: String? = nil, recurrence: Recurrence?? = nil
  ) throws(ChecklistsError) {
    let text = try TextInput.clean(text)
    var cleanNotes: String?
    if let notes { cleanNotes = try NoteInput.clean(notes) }
    if let dueDate, !DueDate.range.contains(dueDate) { throw .dueDateOutOfRange }
    let (row, index) = try locate(item: id, inList: listID)
    lists[row].items[index].text = text
    lists[row].items[index].dueDate = dueDate.map(DueDate.wholeSeconds)
    lists[row].items[index].shouldRemind = shouldRemind
    if let recurrence { lists[row].items[index].recurrence = recurrence }
    if let cleanNotes, cleanNotes != lists[row].items[index].notes {
      lists[row].items[index].notes = cleanNotes
      // A calendar app's DESCRIPTION no longer says what the note says.
      lists[row].items[index].calendar =
        lists[row].items[index].calendar?.droppingProperty(named: "DESCRIPTION")
    }
  }

  /// Checks or unchecks an item; returns its new state.
  ///
  /// - Parameter moment: when and in which zone it is checked: with one, a
  ///   repeating item moves to its next due date instead (unchecked: see
  ///   `ChecklistItem.checked(at:)`); without, it is checked as any other.
  @discardableResult
  package mutating func toggleItem(id: Int, inList listID: Int, at moment: CheckMoment? = nil)
    throws(ChecklistsError) -> Bool
  {
    let (row, index) = try locate(item: id, inList: listID)
    guard !lists[row].items[index].checked else {
      lists[row].items[index].checked = false
      return false
    }
    return check(row: row, index: index, at: moment)
  }

  /// Deletes an item; Recently deleted keeps it, with its position.
  ///
  /// - Parameter deleter: who deletes it (an edit link's or an app's
  ///   deletion counts against its own quota, not the owner's).
  /// - Returns: the id of the deletion, which `restore(deletion:)` undoes.
  @discardableResult
  package mutating func deleteItem(
    id: Int, inList listID: Int, at now: Date, by deleter: Deleter = .owner
  ) throws(ChecklistsError) -> Int {
    let (row, index) = try locate(item: id, inList: listID)
    let item = lists[row].items.remove(at: index)
    return record(
      listID: listID, listName: lists[row].name, list: nil,
      items: [RemovedItem(position: index, item: item)], at: now, by: deleter)
  }

  // MARK: Internals

  func locate(item id: Int, inList listID: Int) throws(ChecklistsError) -> (Int, Int) {
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    guard let index = lists[row].index(ofItem: id) else { throw .noSuchItem(id) }
    return (row, index)
  }

  mutating func takeListID() -> Int {
    defer { nextListID += 1 }
    return nextListID
  }

  /// Inserts at the list's row in display order (binary search: lists stay sorted).
  mutating func insert(_ list: Checklist) {
    var low = 0
    var high = lists.count
    while low < high {
      let middle = (low + high) / 2
      if DataModel.displayOrder(lists[middle], list) { low = middle + 1 } else { high = middle }
    }
    lists.insert(list, at: low)
  }

  /// True when `a` is shown above `b` on All Lists.
  static func displayOrder(_ a: Checklist, _ b: Checklist) -> Bool {
    switch a.name.compare(
      b.name, options: [.caseInsensitive, .numeric], range: nil, locale: .current)
    {
    case .orderedAscending: true
    case .orderedDescending: false
    case .orderedSame: a.id < b.id
    }
  }
}
