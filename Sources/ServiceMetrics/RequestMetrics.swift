#if canImport(Glibc)
  import Glibc
#endif

/// Requests counted by route and status, and timed by route, without a
/// lock: a relaxed atomic add per count, all of them made at start.
///
/// Why not swift-metrics with swift-prometheus here, as everywhere else
/// the ecosystem would: through them (a lock and a dictionary for the
/// route's handles, the library's histogram with its own lock), a list
/// page answered from the memo cost 7,291 instructions instead of 5,797
/// (+26%, callgrind on `bench-web --profile`), over the 5% the metrics may
/// cost it. Here it is three atomic adds, two clock reads and a search of
/// the buckets.
///
/// A route is one of a fixed list given at start-up, named by its method
/// and pattern (`GET`, `/lists/{list}`), so no label ever carries a path,
/// an id or a secret, and the label sets are bounded: routes × the status
/// codes in `statuses` (any other is `other`). Only the pairs that have
/// answered are written out.
package final class RequestMetrics: Sendable {
  /// A route's labels: its method and its pattern.
  package struct RouteLabel: Sendable, Hashable {
    package let method: String
    package let pattern: String

    package init(method: String, pattern: String) {
      self.method = method
      self.pattern = pattern
    }

    /// The health page, answered before routing.
    package static let health = RouteLabel(method: "GET", pattern: "/health")
    /// Any request no route took (`404`, `405`): one label, whatever the
    /// path and method.
    package static let unmatched = RouteLabel(method: "any", pattern: "unmatched")
  }

  /// The codes counted each under its own label; any other is `other`.
  package static let statuses: [Int] = [
    200, 201, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 406, 408, 409,
    410, 411, 412, 413, 414, 415, 416, 422, 429, 431, 500, 501, 502, 503, 504,
  ]

  /// The histogram's upper bounds in nanoseconds, with their `le` label:
  /// from 25 µs (a kept page answers in a few µs, a computed one in about
  /// 50) to 5 s (the longest a visitor's lock is waited for).
  package static let buckets: [(nanoseconds: UInt64, label: String)] = [
    (25_000, "0.000025"), (50_000, "0.00005"), (100_000, "0.0001"), (250_000, "0.00025"),
    (500_000, "0.0005"), (1_000_000, "0.001"), (2_500_000, "0.0025"), (5_000_000, "0.005"),
    (10_000_000, "0.01"), (25_000_000, "0.025"), (50_000_000, "0.05"), (100_000_000, "0.1"),
    (250_000_000, "0.25"), (1_000_000_000, "1"), (5_000_000_000, "5"),
  ]

  /// A monotonic clock's nanoseconds.
  package typealias Instant = UInt64

  package let routes: [RouteLabel]
  /// A status code's column (the last one: `other`), by code.
  private let statusColumns: [UInt8]
  /// The histogram's upper bounds, as `buckets` gives them.
  private let upperBounds: [UInt64]
  /// One row per route: a count per status column, then a count per
  /// bucket (not cumulative; the last one past 5 s), then the nanoseconds
  /// of every answer added up. One allocation, so that an answer is
  /// counted through one reference.
  private let cells: AtomicCounters

  private static let statusColumnCount = statuses.count + 1
  private static let bucketColumnCount = buckets.count + 1
  private static let rowWidth = statusColumnCount + bucketColumnCount + 1

  /// - Parameter routes: every route's label; `record` takes a position in it.
  package init(routes: [RouteLabel]) {
    self.routes = routes
    var columns = [UInt8](repeating: UInt8(Self.statuses.count), count: 600)
    for (column, code) in Self.statuses.enumerated() { columns[code] = UInt8(column) }
    statusColumns = columns
    upperBounds = Self.buckets.map(\.nanoseconds)
    cells = AtomicCounters(count: max(1, routes.count) * Self.rowWidth)
  }

  /// Now, by the monotonic clock: when a request's time starts.
  @inline(__always)
  package static func now() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  /// Counts an answer of the route at `route` (a position in `routes`)
  /// with `status`, timed from `started`.
  package func record(route: Int, status: Int, since started: Instant) {
    guard route >= 0, route < routes.count else { return }
    let elapsed = Self.now() &- started
    let row = route &* Self.rowWidth
    let column =
      status >= 0 && status < statusColumns.count
      ? Int(statusColumns[status]) : Self.statuses.count
    cells.add(at: row &+ column)
    var bucket = 0
    while bucket < upperBounds.count, elapsed > upperBounds[bucket] { bucket &+= 1 }
    cells.add(at: row &+ Self.statusColumnCount &+ bucket)
    cells.add(elapsed, at: row &+ Self.rowWidth &- 1)
  }

  /// The answers of the route at `route` with `status` (nil: `other`).
  package func answers(route: Int, status: Int?) -> UInt64 {
    let column = status.flatMap { Self.statuses.firstIndex(of: $0) } ?? Self.statuses.count
    return cells.value(at: route * Self.rowWidth + column)
  }

  /// Both families, each route's samples only once it has answered.
  package func write(into text: inout PrometheusText) {
    text.family(.requests)
    for (position, route) in routes.enumerated() {
      for column in 0...Self.statuses.count {
        let count = cells.value(at: position * Self.rowWidth + column)
        guard count > 0 else { continue }
        let status = column < Self.statuses.count ? String(Self.statuses[column]) : "other"
        text.sample(
          MetricName.requests.name,
          [("method", route.method), ("route", route.pattern), ("status", status)], count)
      }
    }
    text.family(.requestDuration)
    let name = MetricName.requestDuration.name
    for (position, route) in routes.enumerated() {
      let labels = [("method", route.method), ("route", route.pattern)]
      let row = position * Self.rowWidth
      let counts = (0..<Self.bucketColumnCount).map {
        cells.value(at: row + Self.statusColumnCount + $0)
      }
      let total = counts.reduce(0, +)
      guard total > 0 else { continue }
      var cumulative: UInt64 = 0
      for (bucket, (_, label)) in Self.buckets.enumerated() {
        cumulative += counts[bucket]
        text.sample(name + "_bucket", labels + [("le", label)], cumulative)
      }
      text.sample(name + "_bucket", labels + [("le", "+Inf")], total)
      let seconds = Double(cells.value(at: row + Self.rowWidth - 1)) / 1e9
      text.sample(name + "_sum", labels, "\(seconds)")
      text.sample(name + "_count", labels, total)
    }
  }
}
