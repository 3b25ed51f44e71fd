import Foundation

/// Lists used again and again: a list duplicated, a list kept as a
/// template, and a new list made from a template. Each copy takes new ids
/// and leaves out what ties the original to a calendar app (the to-do's
/// `UID` and kept lines, the collection's properties, the change log): a
/// copy is a new list, which a client must not take for the original.
extension DataModel {
  /// Adds a copy of a list, named by `nameOfCopy` (“<name> copy” unless
  /// the page words it in the visitor's language), with every item as it
  /// is (checkmarks, due dates, reminders, notes), in its order and sort,
  /// and its reset rule (started afresh when the copy is written, not from
  /// the original's last reset).
  ///
  /// - Returns: the new list's id.
  @discardableResult
  package mutating func duplicateList(
    id: Int, nameOfCopy: (String) -> String = { $0 + " copy" }
  ) throws(ChecklistsError) -> Int {
    guard let original = checklist(id: id) else { throw .noSuchList(id) }
    guard lists.count < Limits.maximumLists else { throw .tooManyLists(limit: Limits.maximumLists) }
    let name = (try? TextInput.clean(nameOfCopy(original.name))) ?? original.name
    let items = copies(of: original.items) { $0 }
    var copy = Checklist(
      id: takeListID(), name: name, icon: original.icon, items: items, sort: original.sort)
    copy.reset = original.reset.map { ScheduledReset(rule: $0.rule) }
    insert(copy)
    return copy.id
  }

  /// Keeps a copy of a list as a template: its name, icon, sort, and its
  /// items' texts and notes in their order, unchecked, without due dates or
  /// reminders (dates a template would carry are long past when it is used).
  ///
  /// - Returns: the template's id.
  @discardableResult
  package mutating func saveAsTemplate(listID: Int) throws(ChecklistsError) -> Int {
    guard let list = checklist(id: listID) else { throw .noSuchList(listID) }
    guard templates.count < Limits.maximumTemplates else {
      throw .tooManyTemplates(limit: Limits.maximumTemplates)
    }
    let items = copies(of: list.items) { ChecklistItem(id: $0.id, text: $0.text, notes: $0.notes) }
    var template = Checklist(
      id: takeListID(), name: list.name, icon: list.icon, items: items, sort: list.sort)
    template.reset = list.reset.map { ScheduledReset(rule: $0.rule) }
    templates.append(template)
    templates.sort(by: DataModel.displayOrder)
    return template.id
  }

  /// Adds a list made from a template: its name, icon, sort and items.
  ///
  /// - Returns: the new list's id.
  @discardableResult
  package mutating func addList(fromTemplate id: Int) throws(ChecklistsError) -> Int {
    guard let template = template(id: id) else { throw .noSuchTemplate(id) }
    guard lists.count < Limits.maximumLists else { throw .tooManyLists(limit: Limits.maximumLists) }
    let items = copies(of: template.items) { $0 }
    var list = Checklist(
      id: takeListID(), name: template.name, icon: template.icon, items: items,
      sort: template.sort)
    list.reset = template.reset.map { ScheduledReset(rule: $0.rule) }
    insert(list)
    return list.id
  }

  /// Removes a template for good (the lists made from it stay as they are).
  package mutating func deleteTemplate(id: Int) throws(ChecklistsError) {
    guard let index = templates.firstIndex(where: { $0.id == id }) else {
      throw .noSuchTemplate(id)
    }
    templates.remove(at: index)
  }

  /// The template with this id, if any.
  package func template(id: Int) -> Checklist? {
    templates.first { $0.id == id }
  }

  /// `items` with new ids, each made by `copy` and then given its id, with
  /// no calendar app's data.
  private mutating func copies(
    of items: [ChecklistItem], _ copy: (ChecklistItem) -> ChecklistItem
  ) -> [ChecklistItem] {
    var result: [ChecklistItem] = []
    result.reserveCapacity(items.count)
    for item in items {
      let made = copy(item)
      result.append(
        ChecklistItem(
          id: nextItemID, text: made.text, checked: made.checked, dueDate: made.dueDate,
          shouldRemind: made.shouldRemind, notes: made.notes))
      nextItemID += 1
    }
    return result
  }
}
