import Foundation

/// A list read from a file to import, before it has an id: what every import
/// format reads into, what the preview shows, and what `addImported` adds.
package struct ImportedList: Sendable, Equatable {
  /// The name as the file has it; cleaned (`TextInput.clean`) when added.
  package var name: String
  /// The icon; a format's unknown icon name reads as `.folder`.
  package var icon: ChecklistIcon
  /// How the list is shown.
  package var sort: ItemSort
  /// The items in the file's order.
  package var items: [ImportedItem]
  /// A template (JSON's `"template": true`), added to the templates, not
  /// to the lists.
  package var isTemplate: Bool

  package init(
    name: String, icon: ChecklistIcon = .folder, sort: ItemSort = .own, items: [ImportedItem] = [],
    isTemplate: Bool = false
  ) {
    self.name = name
    self.icon = icon
    self.sort = sort
    self.items = items
    self.isTemplate = isTemplate
  }
}

/// An item read from a file to import.
package struct ImportedItem: Sendable, Equatable {
  /// The text as the file has it; cleaned (`TextInput.clean`) when added.
  package var text: String
  package var checked: Bool
  /// Must be within `DueDate.range`; kept to whole seconds when added.
  package var dueDate: Date?
  package var shouldRemind: Bool
  /// The note as the file has it; cleaned (`NoteInput.clean`) when added.
  package var notes: String
  /// The RRULE the item repeats by, as the file has it (kept verbatim).
  package var recurrence: String?

  package init(
    text: String, checked: Bool = false, dueDate: Date? = nil, shouldRemind: Bool = false,
    notes: String = "", recurrence: String? = nil
  ) {
    self.text = text
    self.checked = checked
    self.dueDate = dueDate
    self.shouldRemind = shouldRemind
    self.notes = notes
    self.recurrence = recurrence
  }
}

/// Why lists cannot be imported: which list or item, and the model's reason.
package struct ImportRefusal: Error, Sendable, Equatable {
  /// The 1-based position of the list in the file.
  package let list: Int
  /// The name of that list as the file has it, shortened for a message.
  package let listName: String
  /// The 1-based position of the item in its list, or nil when the list
  /// itself (its name, or the number of lists) is refused.
  package let item: Int?
  package let reason: ChecklistsError

  /// A sentence for the visitor, naming the place in the file.
  package var message: String {
    let name = listName.count > 40 ? String(listName.prefix(40)) + "…" : listName
    let place =
      if let item { "Item \(item) of list \(list) (“\(name)”)" } else {
        "List \(list) (“\(name)”)"
      }
    return "\(place) cannot be imported. \(reason.message)"
  }
}

extension DataModel {
  /// Adds the lists beside the existing ones, each with new list and item
  /// ids, in one step: either every list is added or, when any name, text,
  /// due date or limit is refused, nothing is.
  ///
  /// - Returns: the ids of the new lists, in the order of `imported`
  ///   (templates, added to the templates, have none here).
  /// - Throws: the first refusal, naming its list and item.
  @discardableResult
  package mutating func addImported(_ imported: [ImportedList]) throws(ImportRefusal) -> [Int] {
    var model = self
    var ids: [Int] = []
    ids.reserveCapacity(imported.count)
    for (listIndex, list) in imported.enumerated() {
      func refused(item: Int?, _ reason: ChecklistsError) -> ImportRefusal {
        ImportRefusal(list: listIndex + 1, listName: list.name, item: item, reason: reason)
      }
      let name: String
      do { name = try TextInput.clean(list.name) } catch { throw refused(item: nil, error) }
      if list.isTemplate {
        guard model.templates.count < Limits.maximumTemplates else {
          throw refused(item: nil, .tooManyTemplates(limit: Limits.maximumTemplates))
        }
      } else {
        guard model.lists.count < Limits.maximumLists else {
          throw refused(item: nil, .tooManyLists(limit: Limits.maximumLists))
        }
      }
      guard list.items.count <= Limits.maximumItemsPerList else {
        throw refused(
          item: Limits.maximumItemsPerList + 1, .tooManyItems(limit: Limits.maximumItemsPerList))
      }
      var items: [ChecklistItem] = []
      items.reserveCapacity(list.items.count)
      for (itemIndex, item) in list.items.enumerated() {
        let text: String
        do { text = try TextInput.clean(item.text) } catch {
          throw refused(item: itemIndex + 1, error)
        }
        if let due = item.dueDate, !DueDate.range.contains(due) {
          throw refused(item: itemIndex + 1, .dueDateOutOfRange)
        }
        var notes = ""
        if !item.notes.isEmpty {
          do { notes = try NoteInput.clean(item.notes) } catch {
            throw refused(item: itemIndex + 1, error)
          }
        }
        items.append(
          ChecklistItem(
            id: model.nextItemID, text: text, checked: item.checked,
            dueDate: item.dueDate.map(DueDate.wholeSeconds), shouldRemind: item.shouldRemind,
            notes: notes, recurrence: item.recurrence.map(Recurrence.init(text:))))
        model.nextItemID += 1
      }
      let id = model.takeListID()
      let made = Checklist(id: id, name: name, icon: list.icon, items: items, sort: list.sort)
      if list.isTemplate {
        model.templates.append(made)
        model.templates.sort(by: DataModel.displayOrder)
      } else {
        model.insert(made)
        ids.append(id)
      }
    }
    self = model
    return ids
  }
}
