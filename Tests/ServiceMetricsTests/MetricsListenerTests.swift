import FastCGI
import Foundation
import MetricsExposition
import ServiceMetrics
import Support
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The listener on a real socket of 127.0.0.1.
struct MetricsListenerTests {
  @Test func answersAScrapeWithTheExport() throws {
    let counters = ServiceCounters()
    counters.count(.storeRetry)
    let export = MetricsExport(
      requests: nil, counters: counters, workers: { (threads: 4, busy: 1) },
      caches: {
        [
          CacheUsage(cache: "pages", bytes: 10_700, entries: 1, budget: 1 << 20),
          CacheUsage(cache: "models", bytes: 0, entries: 0, budget: 32 << 20),
        ]
      })
    let listener = try MetricsListener(
      host: IPv4Address("127.0.0.1")!, port: 0, allowed: nil, export: export)
    listener.start()
    defer { listener.stop() }
    let reply = try exchange(
      port: listener.port, from: "127.0.0.1", "GET /metrics HTTP/1.1\r\n\r\n")
    #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
    #expect(reply.contains("\nchecklists_worker_threads 4\n"))
    #expect(reply.contains("\nchecklists_worker_threads_busy 1\n"))
    #expect(reply.contains("\nchecklists_store_retries_total 1\n"))
    #expect(reply.contains("\nchecklists_cache_bytes{cache=\"pages\"} 10700\n"))
    #expect(reply.contains("\nchecklists_cache_entries{cache=\"pages\"} 1\n"))
    #expect(reply.contains("\nchecklists_cache_budget_bytes{cache=\"models\"} 33554432\n"))
    #expect(reply.components(separatedBy: "# TYPE checklists_cache_bytes gauge\n").count == 2)
  }

  @Test func aPeerOffTheAllowListIsClosedUnansweredAndReported() throws {
    let refused = LockedValue<[String]>([])
    let listener = try MetricsListener(
      host: IPv4Address("127.0.0.1")!, port: 0, allowed: PeerAllowList(parsing: "127.0.0.1"),
      export: MetricsExport(requests: nil, counters: ServiceCounters()),
      refused: { peer in refused.withLock { $0.append("\(peer)") } })
    listener.start()
    defer { listener.stop() }
    let reply = try exchange(
      port: listener.port, from: "127.0.0.2", "GET /metrics HTTP/1.1\r\n\r\n")
    #expect(reply.isEmpty)
    #expect(refused.withLock { $0 } == ["127.0.0.2"])
    let allowed = try exchange(
      port: listener.port, from: "127.0.0.1", "GET /metrics HTTP/1.1\r\n\r\n")
    #expect(allowed.hasPrefix("HTTP/1.1 200 OK"))
  }

  struct SocketFailure: Error {}

  /// Sends `request` from the local address `source` and reads until the
  /// listener closes.
  func exchange(port: Int, from source: String, _ request: String) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketFailure() }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    func address(_ host: String, _ port: Int) -> sockaddr_in {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = IPv4Address(host)!.value.bigEndian
      return address
    }
    var local = address(source, 0)
    var remote = address("127.0.0.1", port)
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
    }
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
    }
    guard bound == 0, connected == 0 else { throw SocketFailure() }
    _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      received += chunk[..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }
}
