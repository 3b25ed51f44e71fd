import Foundation

/// Undo and Recently deleted: what a deletion takes is kept in the model
/// (and so in the visitor's one file, written once per change), and a
/// restore puts it back exactly where it was.
extension DataModel {
  /// How long Recently deleted keeps what went: 30 days.
  package static let deletionsKeptFor: TimeInterval = 30 * 24 * 60 * 60

  /// What a restore did.
  package enum Restored: Sendable, Equatable {
    /// The list is back, with its id.
    case list(id: Int)
    /// The items are back in list `listID`.
    case items(listID: Int, count: Int)
    /// Nothing: that deletion was restored already, or purged.
    case nothing
  }

  /// The deletion with this id, if Recently deleted still has it.
  package func deletion(id: Int) -> Deletion? {
    deletions.first { $0.id == id }
  }

  /// Deletes the checked items of a list, keeping them together as one
  /// deletion.
  ///
  /// - Returns: the deletion's id, or nil when no item was checked (nothing changes).
  @discardableResult
  package mutating func removeCheckedItems(inList listID: Int, at now: Date)
    throws(ChecklistsError) -> Int?
  {
    guard let row = row(ofList: listID) else { throw .noSuchList(listID) }
    var removed: [RemovedItem] = []
    var kept: [ChecklistItem] = []
    for (position, item) in lists[row].items.enumerated() {
      if item.checked {
        removed.append(RemovedItem(position: position, item: item))
      } else {
        kept.append(item)
      }
    }
    guard !removed.isEmpty else { return nil }
    lists[row].items = kept
    return record(listID: listID, listName: lists[row].name, list: nil, items: removed, at: now)
  }

  /// Gives back what a deletion took, and forgets the deletion: a list with
  /// its id, items at their positions (inserted by ascending position, each
  /// at most at the end, so an undo right after the deletion restores the
  /// list exactly).
  ///
  /// - Returns: `.nothing` when the deletion is not (or no longer) there.
  /// - Throws: `.deletedItemsListGone` when the items' list has been
  ///   deleted since (restore it first); `.tooManyLists` / `.tooManyItems`
  ///   when the restore would pass the limits. Nothing changes then.
  package mutating func restore(deletion id: Int) throws(ChecklistsError) -> Restored {
    guard let index = deletions.firstIndex(where: { $0.id == id }) else { return .nothing }
    let deletion = deletions[index]
    let restored: Restored
    if let list = deletion.list {
      guard lists.count < Limits.maximumLists else {
        throw .tooManyLists(limit: Limits.maximumLists)
      }
      // Ids are never reused, so the list's id is free unless it is here.
      guard row(ofList: list.id) == nil else { throw .noSuchList(list.id) }
      insert(list)
      restored = .list(id: list.id)
    } else {
      guard let row = row(ofList: deletion.listID) else {
        throw .deletedItemsListGone(listName: deletion.listName)
      }
      guard lists[row].items.count + deletion.items.count <= Limits.maximumItemsPerList else {
        throw .tooManyItems(limit: Limits.maximumItemsPerList)
      }
      for removed in deletion.items {
        lists[row].items.insert(removed.item, at: min(removed.position, lists[row].items.count))
      }
      restored = .items(listID: deletion.listID, count: deletion.items.count)
    }
    deletions.remove(at: index)
    return restored
  }

  /// Forgets the deletions made before `now - deletionsKeptFor` (of
  /// those `among` selects: all of them, unless a change through a share
  /// link, which reaches only its own list's).
  package mutating func purgeDeletions(
    at now: Date, among selected: (Deletion) -> Bool = { _ in true }
  ) {
    deletions.removeAll { selected($0) && !$0.isKept(at: now) }
  }

  /// Forgets the oldest deletion (of those `among` selects), making room
  /// in a full visitor's file.
  ///
  /// - Returns: false when there was none.
  package mutating func forgetOldestDeletion(
    among selected: (Deletion) -> Bool = { _ in true }
  ) -> Bool {
    guard let oldest = deletions.firstIndex(where: selected) else { return false }
    deletions.remove(at: oldest)
    return true
  }

  /// Forgets the `count` oldest deletions of those `among` selects (all of
  /// them when there are fewer).
  package mutating func forgetOldestDeletions(
    _ count: Int, among selected: (Deletion) -> Bool = { _ in true }
  ) {
    var left = count
    deletions.removeAll { deletion in
      guard left > 0, selected(deletion) else { return false }
      left -= 1
      return true
    }
  }

  /// Keeps a deletion, made by the owner, an edit link of list `listID` or
  /// a calendar app; the oldest of its kind go beyond their quota
  /// (`keepWithinDeletionQuotas()`).
  mutating func record(
    listID: Int, listName: String, list: Checklist?, items: [RemovedItem], at now: Date,
    by deleter: Deleter = .owner
  ) -> Int {
    let id = nextDeletionID
    nextDeletionID += 1
    deletions.append(
      Deletion(
        id: id, deletedAt: DueDate.wholeSeconds(now), listID: listID, listName: listName,
        list: list, items: items, deleter: deleter))
    keepWithinDeletionQuotas()
    return id
  }

  /// Forgets the oldest deletions beyond their quotas: the owner's own
  /// beyond `Limits.maximumDeletions`, the calendar apps' beyond
  /// `Limits.maximumAppDeletions`, and for each list those made through its
  /// links beyond `Limits.maximumLinkDeletionsPerList`. So a link's holder
  /// or an app, deleting as often as they like, pushes out only what its
  /// own kind deleted before, never the owner's deletions or another
  /// list's.
  mutating func keepWithinDeletionQuotas() {
    deletions = Self.withinDeletionQuotas(deletions)
  }

  /// `deletions` (oldest first) less the oldest beyond their quotas (see
  /// `keepWithinDeletionQuotas()`).
  static func withinDeletionQuotas(_ deletions: [Deletion]) -> [Deletion] {
    var owners = 0
    var apps = 0
    var throughLinks: [Int: Int] = [:]
    var kept: [Deletion] = []
    for deletion in deletions.reversed() {
      switch deletion.deleter {
      case .editLink:
        throughLinks[deletion.listID, default: 0] += 1
        guard throughLinks[deletion.listID]! <= Limits.maximumLinkDeletionsPerList else {
          continue
        }
      case .app:
        apps += 1
        guard apps <= Limits.maximumAppDeletions else { continue }
      case .owner:
        owners += 1
        guard owners <= Limits.maximumDeletions else { continue }
      }
      kept.append(deletion)
    }
    return kept.count == deletions.count ? deletions : kept.reversed()
  }
}
