import ChecklistsModel
import Documents
import Storage
import Support

/// The owners' search indexes, each kept with the version of the file it
/// was built from and used again while that file is unchanged: building
/// one for 12,000 items takes about 7 ms, a search over it about 0.1 ms
/// (`bench-search`, release). Bounded by a budget of folded bytes (an
/// owner's index holds about what their texts and notes do, at most about
/// 2 MiB), so a few of the largest owners fit, or many small ones.
final class SearchIndexes: Sendable {
  static let budget = 8 * 1024 * 1024

  private let cache = LockedValue(
    LRUCache<String, Kept>(capacity: 256, budget: SearchIndexes.budget))

  private struct Kept: Sendable {
    var version: DocumentVersion
    var index: SearchIndex
  }

  /// The index of `owner`'s lists as stored now (`shown`, the first-run
  /// list, while nothing is stored).
  func index(of owner: VisitorDirectory, store: ChecklistStore, shown: DataModel) throws
    -> SearchIndex
  {
    let stored = try store.loadVersioned(owner)
    guard let model = stored.model, let version = stored.version else {
      return SearchIndex(shown)
    }
    if let kept = cache.withLock({ $0.value(forKey: owner.key) }), kept.version == version {
      return kept.index
    }
    let index = SearchIndex(model)
    cache.withLock {
      $0.setValue(Kept(version: version, index: index), forKey: owner.key, cost: index.foldedBytes)
    }
    return index
  }
}
