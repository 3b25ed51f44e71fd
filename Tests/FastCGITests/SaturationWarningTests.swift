import FastCGI
import Foundation
import Testing

/// nginx keeps up to `worker_processes × keepalive` idle connections, each
/// holding a backend thread; with more of them than threads, nginx's next new
/// connection waits in the backlog while the backend idles. The server is the
/// one place that can see it, so it must say so in the log.
@Suite struct SaturationWarningTests {
  @Test func moreKeptConnectionsThanThreadsIsWarnedAboutOnce() throws {
    let warnings = Warnings()
    let running = try RunningServer(threads: 2, log: warnings.record) { request in
      Response(status: .ok, body: Array(request.path.utf8))
    }
    defer { _ = running.stop() }
    let kept = try (0..<2).map { _ in
      try FastCGITestClient(socketPath: running.socketPath, timeout: 5)
    }
    for (index, client) in kept.enumerated() {
      let reply = try client.send(parameters: parameters(uri: "/\(index)"), keepConnection: true)
      #expect(reply?.text == "/\(index)")
    }
    // Both threads now hold an idle kept connection: a third connection is
    // not taken until one of them closes.
    let third = try FastCGITestClient(socketPath: running.socketPath, timeout: 0.3)
    defer { third.close() }
    _ = try third.send(parameters: parameters(uri: "/third"), closeAfterSending: true)
    #expect(throws: FastCGITestClient.Failure.timedOut) { try third.readReply() }
    // More requests on the kept connections keep the pool taken; the warning
    // is not repeated within its interval.
    for client in kept {
      _ = try client.send(parameters: parameters(uri: "/again"), keepConnection: true)
    }
    kept[0].close()
    // Now it must be answered: only the wait for nothing was meant to be short.
    third.setTimeout(5)
    let reply = Result { try third.readReply() }
    #expect((try? reply.get())?.text == "/third", "the third connection once one closed: \(reply)")
    kept[1].close()

    let logged = warnings.messages
    #expect(logged.count == 1, "\(logged)")
    let warning = try #require(logged.first)
    #expect(warning.contains("2 FastCGI worker threads"))
    #expect(warning.contains("--threads"))
    #expect(warning.contains("worker_processes × upstream keepalive"))
  }

  @Test func aThreadLeftToAcceptIsNotWarnedAbout() throws {
    let warnings = Warnings()
    let running = try RunningServer(threads: 3, log: warnings.record) { _ in
      Response(status: .ok)
    }
    defer { _ = running.stop() }
    let kept = try (0..<2).map { _ in try running.client() }
    defer { for client in kept { client.close() } }
    for _ in 0..<3 {
      for client in kept {
        #expect(
          try client.send(parameters: parameters(uri: "/"), keepConnection: true)?.status == 200)
      }
    }
    #expect(warnings.messages.isEmpty)
  }
}

/// The warnings a server logged, in order.
final class Warnings: Sendable {
  private let logged = Captured<[String]>()
  private let lock = NSLock()
  var messages: [String] { logged.value ?? [] }

  @Sendable func record(_ level: Server.LogLevel, _ message: String) {
    guard level == .warning else { return }
    lock.withLock { logged.value = messages + [message] }
  }
}
