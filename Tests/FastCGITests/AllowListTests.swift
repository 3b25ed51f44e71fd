import FastCGI
import Foundation
import Testing

/// A server on a TCP port of 127.0.0.1, running on a thread of its own until
/// `stop()`, with every line it logs kept.
final class RunningTCPServer: @unchecked Sendable {
  let server: Server
  let port = FastCGITestClient.unusedLoopbackPort()
  private let logBox = LogBox()
  private let finished = DispatchSemaphore(value: 0)

  init(allowedPeers: PeerAllowList?, refusalWarningInterval: Duration = .zero) throws {
    let box = logBox
    server = Server(
      configuration: ServerConfiguration(
        address: .tcp(host: "127.0.0.1", port: port), threads: 4, allowedPeers: allowedPeers,
        refusalWarningInterval: refusalWarningInterval),
      log: { level, message in box.append(level, message) },
      handler: { _ in Response(status: .ok, body: Array("hello".utf8)) })
    try server.listen()
    let thread = Thread { [server, finished] in
      server.run()
      finished.signal()
    }
    thread.start()
  }

  var logged: [(Server.LogLevel, String)] { logBox.lines }

  func stop() -> Bool {
    server.stop()
    return finished.wait(timeout: .now() + 2) == .success
  }

  func client(from source: String) throws -> FastCGITestClient {
    try FastCGITestClient(host: "127.0.0.1", port: port, from: source)
  }
}

/// The lines a server logged, from any of its threads.
final class LogBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [(Server.LogLevel, String)] = []
  func append(_ level: Server.LogLevel, _ line: String) {
    lock.withLock { stored.append((level, line)) }
  }
  var lines: [(Server.LogLevel, String)] { lock.withLock { stored } }
}

@Suite(.serialized) struct AllowListTests {
  @Test func aPeerNotOnTheListIsRefusedAndLoggedAndOneOnItIsServed() throws {
    let running = try RunningTCPServer(allowedPeers: PeerAllowList(parsing: "127.0.0.1"))
    defer { #expect(running.stop()) }

    let refused = try running.client(from: "127.0.0.2")
    defer { refused.close() }
    #expect(throws: FastCGITestClient.Failure.self) {
      _ = try refused.send(parameters: parameters(uri: "/"))
    }
    let warnings = running.logged.filter { $0.0 == .warning }.map(\.1)
    #expect(warnings == ["refused a connection from 127.0.0.2: not in the allow-list"])

    let allowed = try running.client(from: "127.0.0.1")
    defer { allowed.close() }
    let reply = try #require(try allowed.send(parameters: parameters(uri: "/")))
    #expect(reply.status == 200)
    #expect(reply.text == "hello")
    #expect(running.logged.count == 1)
  }

  @Test func aKeptConnectionOfAnAllowedPeerServesSeveralRequests() throws {
    let running = try RunningTCPServer(allowedPeers: PeerAllowList(parsing: "10.0.0.10,127.0.0.1"))
    defer { #expect(running.stop()) }
    let client = try running.client(from: "127.0.0.1")
    defer { client.close() }
    for _ in 0..<3 {
      let reply = try #require(
        try client.send(parameters: parameters(uri: "/"), keepConnection: true))
      #expect(reply.status == 200)
    }
  }

  @Test func anAllowedPeerThatLeavesBeforeItsRequestIsNoFailure() throws {
    let running = try RunningTCPServer(allowedPeers: PeerAllowList(parsing: "127.0.0.1"))
    defer { #expect(running.stop()) }
    for _ in 0..<4 {
      try running.client(from: "127.0.0.1").close()
    }
    let client = try running.client(from: "127.0.0.1")
    defer { client.close() }
    let reply = try #require(try client.send(parameters: parameters(uri: "/")))
    #expect(reply.status == 200)
    #expect(running.logged.isEmpty)
  }

  @Test func refusalsWithinTheIntervalAreCountedInTheNextWarning() throws {
    let running = try RunningTCPServer(
      allowedPeers: PeerAllowList(parsing: "127.0.0.1"), refusalWarningInterval: .seconds(3600))
    defer { #expect(running.stop()) }
    for _ in 0..<5 {
      let client = try running.client(from: "127.0.0.3")
      defer { client.close() }
      #expect(throws: FastCGITestClient.Failure.self) {
        _ = try client.send(parameters: parameters(uri: "/"))
      }
    }
    #expect(
      running.logged.map(\.1) == ["refused a connection from 127.0.0.3: not in the allow-list"])

    var warnings = RefusalWarnings(interval: .seconds(10))
    let start = ContinuousClock.now
    let peer = try #require(IPv4Address("10.0.0.99"))
    #expect(warnings.refused(peer, at: start) != nil)
    #expect(warnings.refused(peer, at: start + .seconds(1)) == nil)
    #expect(warnings.refused(peer, at: start + .seconds(9)) == nil)
    #expect(
      warnings.refused(peer, at: start + .seconds(10))
        == "refused a connection from 10.0.0.99: not in the allow-list (2 more refused since the last warning)"
    )
  }

  @Test func anAddressOtherMachinesReachIsNotListenedOnWithoutAList() throws {
    let port = FastCGITestClient.unusedLoopbackPort()
    let server = Server(
      configuration: ServerConfiguration(address: .tcp(host: "0.0.0.0", port: port)),
      handler: { _ in Response(status: .ok) })
    #expect(throws: ServerError.noAllowList(address: "0.0.0.0:\(port)")) {
      try server.listen()
    }
  }
}
