/// A change the model refuses; nothing was changed.
package enum ChecklistsError: Error, Sendable, Equatable {
  /// The text or name is empty once cleaned.
  case emptyText
  /// The text or name is longer than `limit` characters once cleaned.
  case textTooLong(limit: Int)
  /// The text or name has few enough characters but more Unicode scalars
  /// or UTF-8 bytes than `Limits` allows (marks piled on letters).
  case textTooLarge
  /// An item's note is longer than `limit` characters once cleaned.
  case noteTooLong(limit: Int)
  /// A note has few enough characters but more Unicode scalars or UTF-8
  /// bytes than `Limits` allows.
  case noteTooLarge
  /// The visitor already has `limit` lists.
  case tooManyLists(limit: Int)
  /// The list already has `limit` items.
  case tooManyItems(limit: Int)
  /// The change would make the visitor's stored checklists larger than
  /// `limit` bytes.
  case storageFull(limit: Int)
  /// A change through an edit link would make its list (with what its
  /// links deleted) larger than the list's share of the owner's room,
  /// `limit` bytes.
  case sharedListFull(limit: Int)
  /// A change through an edit link would pass the owner's cap: their
  /// checklists are full, and a link makes no room in them.
  case ownersStorageFull
  /// The visitor already has `limit` templates.
  case tooManyTemplates(limit: Int)
  /// No template has this id.
  case noSuchTemplate(Int)
  /// No list has this id (never existed, or deleted).
  case noSuchList(Int)
  /// The list has no item with this id.
  case noSuchItem(Int)
  /// A due date before 1970 or after 9999.
  case dueDateOutOfRange
  /// Deleted items cannot be restored: their list has been deleted since.
  case deletedItemsListGone(listName: String)

  /// A sentence for the visitor.
  package var message: String {
    switch self {
    case .emptyText: "Please type some text."
    case .textTooLong(let limit): "That text is too long: at most \(limit) characters, please."
    case .textTooLarge:
      "That text is too long to keep: it has more accents, marks or symbols than any real text of \(Limits.maximumTextLength) characters (at most \(Limits.maximumTextScalars) Unicode code points and \(Limits.maximumTextBytes) bytes). Please shorten it."
    case .noteTooLong(let limit): "That note is too long: at most \(limit) characters, please."
    case .noteTooLarge:
      "That note is too long to keep: at most \(Limits.maximumNoteScalars) Unicode code points and \(Limits.maximumNoteBytes) bytes. Please shorten it."
    case .tooManyLists(let limit):
      "You already have \(limit) lists, the most there can be. Delete one first."
    case .tooManyItems(let limit):
      "This list already has \(limit) items, the most it can hold. Delete some first."
    case .storageFull(let limit):
      "Your checklists are full: together they may take \(limit / 1_048_576) MB, and this change would go beyond that. Delete some items or lists first."
    case .sharedListFull(let limit):
      "This shared list is full: through its link it may take \(limit / 1024) KB, and this change would go beyond that. Delete some items first, or ask the list's owner."
    case .ownersStorageFull:
      "This shared list cannot grow: its owner's checklists are full. Delete some items first, or ask the list's owner."
    case .tooManyTemplates(let limit):
      "You already have \(limit) templates, the most there can be. Delete one first."
    case .noSuchTemplate: "That template does not exist. It may have been deleted."
    case .noSuchList: "That list does not exist. It may have been deleted."
    case .noSuchItem: "That item does not exist. It may have been deleted."
    case .dueDateOutOfRange: "Please choose a due date between the years 1970 and 9999."
    case .deletedItemsListGone(let listName):
      "These items were in the list “\(listName)”, which has been deleted since. Restore that list first, then these items."
    }
  }
}
