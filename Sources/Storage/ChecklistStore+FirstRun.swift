import ChecklistsModel

extension ChecklistStore {
  /// `update` for a request that changes something: starts from the stored
  /// model or, on the visitor's first run, from the first-run list; the
  /// first run is committed to `preferences` (ChecklistIndex 0, FirstTime
  /// false) only once `change` succeeded, so a refused first request leaves
  /// it pending rather than losing the first-run list.
  ///
  /// - Throws: `StoreError` or whatever `change` throws.
  @discardableResult
  public func update<T>(
    _ visitor: VisitorDirectory, preferences: ChecklistPreferences,
    _ change: (inout DataModel) throws -> T
  ) throws -> T {
    var pending = false
    let start = { (stored: DataModel?) -> DataModel in
      pending = FirstRun.isPending(stored: stored, preferences: preferences)
      return FirstRun.model(stored: stored, preferences: preferences, commit: false)
    }
    return try update(visitor, initial: start) { model in
      let result = try change(&model)
      if pending { _ = FirstRun.model(stored: nil, preferences: preferences, commit: true) }
      return result
    }
  }
}
