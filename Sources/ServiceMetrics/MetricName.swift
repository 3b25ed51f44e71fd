/// Every metric the service exports: its name, its type and the help an
/// operator reads in the scrape. One list, so that each name gets its
/// `# HELP` and `# TYPE` lines and a test can hold the names to
/// Prometheus' conventions.
package struct MetricName: Sendable, Hashable, CustomStringConvertible {
  /// Prometheus' types of the metrics used here.
  package enum Kind: String, Sendable {
    case counter, gauge, histogram
  }

  package let name: String
  package let kind: Kind
  package let help: String

  package var description: String { name }

  /// Answers by route pattern, method and status code.
  package static let requests = MetricName(
    name: "checklists_http_requests_total", kind: .counter,
    help: "Requests answered, by route pattern (never the path itself), method and status code.")
  /// How long an answer took in the backend, by route pattern and method.
  package static let requestDuration = MetricName(
    name: "checklists_http_request_duration_seconds", kind: .histogram,
    help: "Time from the request's arrival in the web layer to its answer, by route pattern.")
  /// Look-ups of the whole-answer memo.
  package static let memoLookups = MetricName(
    name: "checklists_response_memo_lookups_total", kind: .counter,
    help: "Look-ups of the memo of whole answers (memo: pages or shared), by result: hit or miss.")
  /// Reads asked of the PostgreSQL store.
  package static let databaseReads = MetricName(
    name: "checklists_database_reads_total", kind: .counter,
    help:
      "Reads asked of the PostgreSQL store: a document, its version, a directory's version or entries."
  )
  /// Writes asked of the PostgreSQL store.
  package static let databaseWrites = MetricName(
    name: "checklists_database_writes_total", kind: .counter,
    help:
      "Writes asked of the PostgreSQL store: a document written, replaced, created, removed or set aside."
  )
  /// Connections to PostgreSQL made again after one was lost.
  package static let databaseReconnects = MetricName(
    name: "checklists_database_reconnects_total", kind: .counter,
    help:
      "Connections to PostgreSQL made again after one was lost (a server restart, a network cut).")
  /// Conditional writes that found another version (another host's change).
  package static let storeConflicts = MetricName(
    name: "checklists_store_conflicts_total", kind: .counter,
    help: "Changes of a visitor's checklists whose conditional write found another version stored.")
  /// Changes worked out again on the version a conflict found.
  package static let storeRetries = MetricName(
    name: "checklists_store_retries_total", kind: .counter,
    help: "Changes worked out again on the version a conflicting write found.")
  /// Requests refused by the backend's own attempt limits (`429`).
  package static let rateLimitRefusals = MetricName(
    name: "checklists_rate_limit_refusals_total", kind: .counter,
    help: "Requests the backend refused with 429 after too many wrong attempts, by limiter.")
  /// FastCGI worker threads reading or answering a request.
  package static let workersBusy = MetricName(
    name: "checklists_worker_threads_busy", kind: .gauge,
    help: "FastCGI worker threads reading or answering a request at the time of the scrape.")
  /// FastCGI worker threads in all.
  package static let workers = MetricName(
    name: "checklists_worker_threads", kind: .gauge,
    help: "FastCGI worker threads in all (serve --threads).")
  /// What a cache's entries take in memory, by its own estimate.
  package static let cacheBytes = MetricName(
    name: "checklists_cache_bytes", kind: .gauge,
    help:
      "Memory a cache's entries take by its own estimate (cache: pages, shared, models or rows), at the time of the scrape."
  )
  /// How many entries a cache holds.
  package static let cacheEntries = MetricName(
    name: "checklists_cache_entries", kind: .gauge,
    help:
      "Entries a cache holds (cache: pages, shared, models or rows; a page's rows are one entry) at the time of the scrape."
  )
  /// The memory a cache may take.
  package static let cacheBudget = MetricName(
    name: "checklists_cache_budget_bytes", kind: .gauge,
    help:
      "Memory a cache may take (serve --page-cache-size for pages and shared, --cache-size for models, --row-cache-size for rows)."
  )

  /// Every name above.
  package static let all: [MetricName] = [
    requests, requestDuration, memoLookups, databaseReads, databaseWrites, databaseReconnects,
    storeConflicts, storeRetries, rateLimitRefusals, workersBusy, workers, cacheBytes,
    cacheEntries, cacheBudget,
  ]
}
