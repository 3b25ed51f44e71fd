import ServiceMetrics
import Testing

/// Requests counted by route pattern and status, read back in Prometheus'
/// text format.
struct RequestMetricsTests {
  let metrics = RequestMetrics(routes: [
    .init(method: "GET", pattern: "/lists/{list}"), .init(method: "POST", pattern: "/lists"),
    .health, .unmatched,
  ])

  var text: String {
    var text = PrometheusText()
    metrics.write(into: &text)
    return String(decoding: text.bytes, as: UTF8.self)
  }

  @Test func countsEachRouteAndStatusUnderItsPattern() {
    for _ in 0..<2 { metrics.record(route: 0, status: 200, since: RequestMetrics.now()) }
    metrics.record(route: 0, status: 304, since: RequestMetrics.now())
    metrics.record(route: 3, status: 404, since: RequestMetrics.now())
    let text = text
    #expect(
      text.contains(
        #"checklists_http_requests_total{method="GET",route="/lists/{list}",status="200"} 2"#))
    #expect(
      text.contains(
        #"checklists_http_requests_total{method="GET",route="/lists/{list}",status="304"} 1"#))
    #expect(
      text.contains(
        #"checklists_http_requests_total{method="any",route="unmatched",status="404"} 1"#))
    #expect(
      text.contains(
        #"checklists_http_request_duration_seconds_count{method="GET",route="/lists/{list}"} 3"#))
    #expect(!text.contains(#"route="/lists","#), "a route that answered nothing has no series")
    #expect(metrics.answers(route: 0, status: 200) == 2)
  }

  @Test func theHistogramIsCumulativeWithEveryBucketAndItsSum() {
    // An answer that started 30 ms ago falls past the 25 ms bucket.
    metrics.record(route: 1, status: 303, since: RequestMetrics.now() - 30_000_000)
    metrics.record(route: 1, status: 303, since: RequestMetrics.now())
    let text = text
    let name = "checklists_http_request_duration_seconds"
    let labels = #"method="POST",route="/lists""#
    #expect(text.contains("# TYPE \(name) histogram"))
    #expect(text.contains(#"\#(name)_bucket{\#(labels),le="0.025"} 1"#))
    #expect(text.contains(#"\#(name)_bucket{\#(labels),le="0.05"} 2"#))
    #expect(text.contains(#"\#(name)_bucket{\#(labels),le="+Inf"} 2"#))
    let buckets = text.split(separator: "\n").filter { $0.hasPrefix("\(name)_bucket{\(labels)") }
    #expect(buckets.count == RequestMetrics.buckets.count + 1)
    let sum = text.split(separator: "\n").first { $0.hasPrefix("\(name)_sum{\(labels)}") }
    let seconds = sum.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    #expect(seconds >= 0.03 && seconds < 1, "\(sum ?? "no sum")")
  }

  @Test func anUnknownStatusIsOneLabelAndAnUnknownRouteIsDropped() {
    metrics.record(route: 2, status: 1_000, since: RequestMetrics.now())
    metrics.record(route: 2, status: 299, since: RequestMetrics.now())
    metrics.record(route: 99, status: 200, since: RequestMetrics.now())
    metrics.record(route: -1, status: 200, since: RequestMetrics.now())
    let text = text
    #expect(
      text.contains(
        #"checklists_http_requests_total{method="GET",route="/health",status="other"} 2"#))
    #expect(!text.contains(#"status="200""#))
    #expect(metrics.answers(route: 2, status: nil) == 2)
  }

  @Test func everyFamilyHasItsHelpAndTypeOnce() {
    metrics.record(route: 0, status: 200, since: RequestMetrics.now())
    let lines = text.split(separator: "\n")
    for metric in [MetricName.requests, .requestDuration] {
      #expect(lines.filter { $0.hasPrefix("# HELP \(metric.name) ") }.count == 1)
      #expect(lines.filter { $0 == "# TYPE \(metric.name) \(metric.kind.rawValue)" }.count == 1)
    }
  }

  @Test func countsFromManyThreadsAreNotLost() async {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 { metrics.record(route: 0, status: 200, since: RequestMetrics.now()) }
        }
      }
    }
    #expect(metrics.answers(route: 0, status: 200) == 80_000)
    #expect(
      text.contains(
        #"checklists_http_request_duration_seconds_count{method="GET",route="/lists/{list}"} 80000"#
      ))
  }
}

/// The counters outside a request's route, with their labels.
struct ServiceCountersTests {
  @Test func eachCounterIsWrittenUnderItsMetricAndLabels() {
    let counters = ServiceCounters()
    counters.count(.pagesMemoHit)
    counters.count(.pagesMemoHit)
    counters.count(.linkCodeRefusal)
    counters.count(.databaseReconnect)
    var text = PrometheusText()
    counters.write(into: &text)
    let written = String(decoding: text.bytes, as: UTF8.self)
    #expect(
      written.contains(#"checklists_response_memo_lookups_total{memo="pages",result="hit"} 2"#))
    #expect(
      written.contains(#"checklists_response_memo_lookups_total{memo="shared",result="miss"} 0"#))
    #expect(written.contains(#"checklists_rate_limit_refusals_total{limiter="link_code"} 1"#))
    #expect(written.contains("checklists_database_reconnects_total 1\n"))
    #expect(written.contains("checklists_store_conflicts_total 0\n"))
    let lines = written.split(separator: "\n")
    #expect(
      lines.filter { $0.hasPrefix("# TYPE checklists_response_memo_lookups_total") }.count == 1)
  }
}

/// The format's own rules, and Prometheus' conventions for the names.
struct PrometheusTextTests {
  @Test func labelValuesAndHelpAreEscaped() {
    #expect(PrometheusText.escapedLabel(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
    var text = PrometheusText()
    text.sample("x_total", [("route", #"/a"b"#)], 3)
    #expect(String(decoding: text.bytes, as: UTF8.self) == #"x_total{route="/a\"b"} 3"# + "\n")
  }

  @Test func theNamesFollowPrometheusConventions() {
    let names = MetricName.all.map(\.name)
    #expect(Set(names).count == names.count)
    for metric in MetricName.all {
      #expect(metric.name.hasPrefix("checklists_"))
      #expect(metric.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(metric)")
      #expect(!metric.help.isEmpty)
      #expect(metric.name.hasSuffix("_total") == (metric.kind == .counter), "\(metric)")
    }
    #expect(MetricName.requestDuration.name.hasSuffix("_seconds"))
  }
}
