import ChecklistsModel
import Foundation

extension ChecklistStore {
  /// Makes one change of an owner's checklists, whoever sends it: the
  /// owner's browser or a share link. One write under the owner's lock
  /// (`update(_:initial:forgettable:_:)`), and the two steps every change
  /// takes, in one place:
  ///
  /// - Recently Deleted forgets what is older than
  ///   `DataModel.deletionsKeptFor`, before the change, so that a restore
  ///   never brings back what the screen no longer shows. No thread runs for
  ///   it; an owner who changes nothing keeps their file as it was. Only
  ///   `forgettable` deletions go: a link never purges what it did not delete.
  /// - A list's scheduled reset that has fallen due at `now` is applied
  ///   before the change (`DataModel.applyDueResets`), and after it the
  ///   rules are settled (`settleResets`: a new rule starts at `now`, an
  ///   `afterAllChecked` rule notes when every item became checked).
  /// - With `firstRun`, the first-run list the visitor was shown (named
  ///   `firstListName`, in their language) is where
  ///   the change starts while nothing is stored, and the first run is
  ///   committed to the preferences (ChecklistIndex 0, FirstTime false) only
  ///   once the change is made, so a refused first change leaves it pending
  ///   rather than losing the list.
  ///
  /// - Throws: what `update(_:initial:forgettable:_:)` throws.
  @discardableResult
  package func update<T>(
    _ owner: VisitorDirectory, at now: Date,
    firstRun preferences: (any ChecklistPreferences)? = nil,
    firstListName: String = DataModel.firstListName,
    forgettable: (Deletion) -> Bool = { _ in true }, _ change: (inout DataModel) throws -> T
  ) throws -> T {
    var pending = false
    let result = try update(
      owner,
      initial: { stored in
        guard let preferences else { return stored ?? DataModel() }
        pending = FirstRun.isPending(stored: stored, preferences: preferences)
        return FirstRun.model(
          stored: stored, preferences: preferences, commit: false, listName: firstListName)
      }, forgettable: forgettable,
      { model in
        model.applyDueResets(at: now)
        model.purgeDeletions(at: now, among: forgettable)
        let result = try change(&model)
        model.settleResets(at: now)
        return result
      })
    if pending, let preferences {
      _ = FirstRun.model(stored: nil, preferences: preferences, commit: true)
    }
    return result
  }
}
