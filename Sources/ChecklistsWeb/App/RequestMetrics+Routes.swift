import ServiceMetrics

extension RequestMetrics {
  /// Requests counted under the routes of `table` by method and pattern,
  /// in the table's order (a `Match`'s `position`), then the health page
  /// (`healthPosition`), then any request no route took
  /// (`unmatchedPosition`).
  package convenience init(routes table: RouteTable) {
    self.init(
      routes: table.routes.map {
        RouteLabel(method: $0.method.description, pattern: $0.pattern.description)
      } + [.health, .unmatched])
  }

  /// Where the health page is counted.
  var healthPosition: Int { routes.count - 2 }
  /// Where a request no route took is counted, whatever its path.
  var unmatchedPosition: Int { routes.count - 1 }
}
