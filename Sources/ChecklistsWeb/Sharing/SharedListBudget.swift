import ChecklistsModel
import Storage

/// The room an edit link has: a link changes its own list within its own
/// budget, and never evicts, purges or blocks anything outside that list
/// (SPEC §8).
///
/// Edit links together may take `Limits.maximumBytesThroughLinks`, half of
/// the owner's 2 MiB, shared equally among the owner's lists that have an
/// edit link (one such list may grow to 1 MiB through its link, four to
/// 256 KiB each), so links never fill the owner's file and one list's link
/// never takes another's room. A list is measured with the deletions its
/// links made (`ListFootprint`), the owner's own items in it included. A
/// change that would take the list past its share and make it larger than
/// it was is refused (deleting, checking and shortening always pass); the
/// room it needs may come only from the oldest deletions this list's links
/// made. The owner's deletions and every other list are out of reach.
struct SharedListBudget {
  /// The link's list.
  let listID: Int
  /// The owner's lists that have an edit link (deleted ones included: they
  /// are not counted while deleted).
  let editLinkedLists: Set<Int>

  /// The list's share in bytes, in `model`.
  func share(in model: DataModel) -> Int {
    let shared = editLinkedLists.filter { model.checklist(id: $0) != nil }.count
    return Limits.maximumBytesThroughLinks / max(1, shared)
  }

  /// The deletions a change through the link may forget: those its own
  /// list's links made, never the owner's or another list's.
  func mayForget(_ deletion: Deletion) -> Bool {
    deletion.isThroughLink(ofList: listID)
  }

  /// Makes `model`, a change's result from `before`, fit the list's share:
  /// the oldest deletions of this list's links go first if need be.
  ///
  /// - Throws: `.sharedListFull` when the change grows the list past its
  ///   share even so (nothing is written then).
  func fit(_ model: inout DataModel, changedFrom before: DataModel) throws(ChecklistsError) {
    let share = share(in: model)
    guard var after = ListFootprint.bytes(ofList: listID, in: model), after > share else {
      return
    }
    let was = ListFootprint.bytes(ofList: listID, in: before) ?? 0
    while after > share, after > was, let oldest = model.deletions.first(where: mayForget) {
      after -= ListFootprint.bytes(of: oldest)
      _ = model.forgetOldestDeletion(among: mayForget)
    }
    if after > share, after > was { throw .sharedListFull(limit: share) }
  }
}
