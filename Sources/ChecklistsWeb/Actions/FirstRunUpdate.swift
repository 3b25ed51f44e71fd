import ChecklistsModel
import Foundation
import Storage

/// A change of a visitor's checklists that may be their first: it starts
/// from the stored model or, on the visitor's first run, from the first-run
/// list; the first run is committed to the preferences (ChecklistIndex 0,
/// FirstTime false) only once the change succeeded, so a refused first
/// request leaves it pending rather than losing the first-run list.
///
/// Every change goes through here, so here Recently deleted forgets what
/// is older than `DataModel.deletionsKeptFor`: before the change, so that a
/// restore never brings back what the screen no longer shows. No thread
/// runs for it; a visitor who changes nothing keeps their file as it was.
struct FirstRunUpdate {
  let preferences: ChecklistPreferences
  /// The time of the change, which decides what is purged.
  let now: Date

  /// Applies `change` with `ChecklistStore.update`: one write, under the
  /// visitor's lock.
  ///
  /// - Throws: `StoreError` or whatever `change` throws.
  @discardableResult
  func update<T>(
    _ visitor: VisitorDirectory, in store: ChecklistStore, _ change: (inout DataModel) throws -> T
  ) throws -> T {
    var pending = false
    let start = { (stored: DataModel?) -> DataModel in
      pending = FirstRun.isPending(stored: stored, preferences: preferences)
      return FirstRun.model(stored: stored, preferences: preferences, commit: false)
    }
    return try store.update(visitor, initial: start) { model in
      model.purgeDeletions(at: now)
      let result = try change(&model)
      if pending { _ = FirstRun.model(stored: nil, preferences: preferences, commit: true) }
      return result
    }
  }
}
