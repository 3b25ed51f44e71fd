import Foundation

/// What Recently deleted shows, and the deletion that answers a delete sent
/// twice.
extension DataModel {
  /// The deletions of the last `deletionsKeptFor` at `now`, newest first.
  /// Older ones are dropped by the next change (`purgeDeletions(at:)`); until
  /// then they are no longer shown.
  package func recentDeletions(at now: Date) -> [Deletion] {
    deletions.reversed().filter { $0.isKept(at: now) }
  }

  /// The deletion `id` while Recently deleted shows it at `now`.
  package func recentDeletion(id: Int, at now: Date) -> Deletion? {
    deletion(id: id).flatMap { $0.isKept(at: now) ? $0 : nil }
  }

  /// The latest deletion of item `itemID` alone from list `listID`, while
  /// the model keeps it: a delete sent twice (a double click, a retry after
  /// a timeout) finds the item gone, and this deletion answers it as the
  /// first delivery was answered.
  package func deletion(ofItem itemID: Int, inList listID: Int) -> Deletion? {
    deletions.last { deletion in
      deletion.list == nil && deletion.listID == listID && deletion.items.count == 1
        && deletion.items[0].item.id == itemID
    }
  }

  /// The latest deletion of list `listID`, while the model keeps it (see
  /// `deletion(ofItem:inList:)`).
  package func deletion(ofList listID: Int) -> Deletion? {
    deletions.last { $0.list?.id == listID }
  }
}
