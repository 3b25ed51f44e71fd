import ServiceMetrics

/// The process's metrics in Prometheus' text format, gathered when a
/// scrape asks: the requests by route and status, the service's counters,
/// and the worker threads and the caches' use as they are at that moment.
package final class MetricsExport: Sendable {
  /// The FastCGI worker threads: how many in all, how many busy.
  package typealias Workers = @Sendable () -> (threads: Int, busy: Int)

  private let requests: RequestMetrics?
  private let counters: ServiceCounters
  private let workers: Workers?
  /// The caches' use (`CacheUsage`), asked at each scrape.
  package typealias Caches = @Sendable () -> [CacheUsage]
  private let caches: Caches?

  package init(
    requests: RequestMetrics?, counters: ServiceCounters = .shared, workers: Workers? = nil,
    caches: Caches? = nil
  ) {
    self.requests = requests
    self.counters = counters
    self.workers = workers
    self.caches = caches
  }

  /// Every metric, as Prometheus' text format (version 0.0.4).
  package func text() -> [UInt8] {
    var text = PrometheusText()
    requests?.write(into: &text)
    counters.write(into: &text)
    if let workers {
      let (threads, busy) = workers()
      text.family(.workers)
      text.sample(MetricName.workers.name, [], UInt64(max(threads, 0)))
      text.family(.workersBusy)
      text.sample(MetricName.workersBusy.name, [], UInt64(max(busy, 0)))
    }
    if let caches {
      CacheUsage.write(caches(), into: &text)
    }
    return text.bytes
  }
}
