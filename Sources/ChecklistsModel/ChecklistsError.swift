/// A change the model refuses; nothing was changed.
public enum ChecklistsError: Error, Sendable, Equatable {
  /// The text or name is empty once cleaned.
  case emptyText
  /// The text or name is longer than `limit` characters once cleaned.
  case textTooLong(limit: Int)
  /// The visitor already has `limit` lists.
  case tooManyLists(limit: Int)
  /// The list already has `limit` items.
  case tooManyItems(limit: Int)
  /// No list has this id (never existed, or deleted).
  case noSuchList(Int)
  /// The list has no item with this id.
  case noSuchItem(Int)

  /// A sentence for the visitor.
  public var message: String {
    switch self {
    case .emptyText: "Please type some text."
    case .textTooLong(let limit): "That text is too long: at most \(limit) characters, please."
    case .tooManyLists(let limit):
      "You already have \(limit) lists, the most there can be. Delete one first."
    case .tooManyItems(let limit):
      "This list already has \(limit) items, the most it can hold. Delete some first."
    case .noSuchList: "That list does not exist. It may have been deleted."
    case .noSuchItem: "That item does not exist. It may have been deleted."
    }
  }
}
