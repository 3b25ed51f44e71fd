/// The counters of the service outside a request's route and status: the
/// memo, the store, the database, the attempt limits. One per process,
/// counted whether or not `serve --metrics` is given (an atomic add, a few
/// instructions), written out only when a scrape asks.
package final class ServiceCounters: Sendable {
  /// What is counted, each under its metric and labels (`metric`).
  package enum Event: Int, CaseIterable, Sendable {
    case pagesMemoHit, pagesMemoMiss, sharedMemoHit, sharedMemoMiss
    case databaseRead, databaseWrite, databaseReconnect
    case storeConflict, storeRetry
    /// A wrong link code refused with `429` (`AttemptLimiter`).
    case linkCodeRefusal
    /// A calendar app's wrong password refused with `429` (`AttemptLimiter`).
    case appPasswordRefusal
    /// An app password made or ended past the owner's budget, refused with
    /// `429` (`AttemptLimiter`).
    case appChangeRefusal

    /// The metric it is counted under, and its labels.
    package var metric: (name: MetricName, labels: [(String, String)]) {
      switch self {
      case .pagesMemoHit: (.memoLookups, [("memo", "pages"), ("result", "hit")])
      case .pagesMemoMiss: (.memoLookups, [("memo", "pages"), ("result", "miss")])
      case .sharedMemoHit: (.memoLookups, [("memo", "shared"), ("result", "hit")])
      case .sharedMemoMiss: (.memoLookups, [("memo", "shared"), ("result", "miss")])
      case .databaseRead: (.databaseReads, [])
      case .databaseWrite: (.databaseWrites, [])
      case .databaseReconnect: (.databaseReconnects, [])
      case .storeConflict: (.storeConflicts, [])
      case .storeRetry: (.storeRetries, [])
      case .linkCodeRefusal: (.rateLimitRefusals, [("limiter", "link_code")])
      case .appPasswordRefusal: (.rateLimitRefusals, [("limiter", "app_password")])
      case .appChangeRefusal: (.rateLimitRefusals, [("limiter", "app_change")])
      }
    }
  }

  private let counters = AtomicCounters(count: Event.allCases.count)

  package init() {}

  /// The process's counters.
  package static let shared = ServiceCounters()

  @inline(__always)
  package func count(_ event: Event) {
    counters.add(at: event.rawValue)
  }

  package func value(of event: Event) -> UInt64 {
    counters.value(at: event.rawValue)
  }

  /// Every counter, each family once, in the order of `Event`.
  package func write(into text: inout PrometheusText) {
    var written: Set<MetricName> = []
    for event in Event.allCases {
      let (name, labels) = event.metric
      if written.insert(name).inserted { text.family(name) }
      text.sample(name.name, labels, value(of: event))
    }
  }
}
