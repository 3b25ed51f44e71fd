/// What one of the process's caches holds at a moment, as the metrics
/// report it (`checklists_cache_bytes`, `_entries`, `_budget_bytes`).
package struct CacheUsage: Sendable, Equatable {
  /// The cache's label: `pages`, `shared` or `models`.
  package var cache: String
  /// What its entries take, by the cache's own estimate.
  package var bytes: Int
  package var entries: Int
  /// What its entries may take together.
  package var budget: Int

  package init(cache: String, bytes: Int, entries: Int, budget: Int) {
    self.cache = cache
    self.bytes = bytes
    self.entries = entries
    self.budget = budget
  }

  /// The three gauges of `caches`, each family once.
  package static func write(_ caches: [CacheUsage], into text: inout PrometheusText) {
    let gauges: [(MetricName, (CacheUsage) -> Int)] = [
      (.cacheBytes, \.bytes), (.cacheEntries, \.entries), (.cacheBudget, \.budget),
    ]
    for (metric, value) in gauges {
      text.family(metric)
      for usage in caches {
        text.sample(metric.name, [("cache", usage.cache)], UInt64(max(value(usage), 0)))
      }
    }
  }
}
