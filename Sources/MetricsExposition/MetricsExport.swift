import ServiceMetrics

/// The process's metrics in Prometheus' text format, gathered when a
/// scrape asks: the requests by route and status, the service's counters,
/// and the worker threads as they are at that moment.
package final class MetricsExport: Sendable {
  /// The FastCGI worker threads: how many in all, how many busy.
  package typealias Workers = @Sendable () -> (threads: Int, busy: Int)

  private let requests: RequestMetrics?
  private let counters: ServiceCounters
  private let workers: Workers?

  package init(
    requests: RequestMetrics?, counters: ServiceCounters = .shared, workers: Workers? = nil
  ) {
    self.requests = requests
    self.counters = counters
    self.workers = workers
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
    return text.bytes
  }
}
