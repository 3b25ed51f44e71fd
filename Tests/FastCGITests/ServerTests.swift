import FastCGI
import Foundation
import HTTPTypes
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A server on a Unix socket in a temporary directory, running on a thread
/// of its own until `stop()`.
final class RunningServer: @unchecked Sendable {
  let server: Server
  let directory = TemporaryDirectory("fcgi")
  let socketPath: String
  private let finished = DispatchSemaphore(value: 0)

  init(
    threads: Int = 4, maximumBodySize: Int = 1024, largerBodies: [String: Int] = [:],
    log: @escaping @Sendable (Server.LogLevel, String) -> Void = { _, _ in },
    handler: @escaping Handler
  ) throws {
    socketPath = directory.appending("backend.sock")
    server = Server(
      configuration: ServerConfiguration(
        address: .unixSocket(path: socketPath), threads: threads, maximumBodySize: maximumBodySize,
        largerBodies: largerBodies),
      log: log, handler: handler)
    try server.listen()
    let thread = Thread { [server, finished] in
      server.run()
      finished.signal()
    }
    thread.start()
  }

  /// Stops the server; true when `run` returned within `seconds`.
  func stop(within seconds: Double = 2) -> Bool {
    server.stop()
    return finished.wait(timeout: .now() + seconds) == .success
  }

  func client(timeout: Double? = nil) throws -> FastCGITestClient {
    try FastCGITestClient(socketPath: socketPath, timeout: timeout)
  }
}

/// The parameters nginx sends for a simple request.
func parameters(method: String = "GET", uri: String, extra: [(String, String)] = []) -> [(
  String, String
)] {
  [("REQUEST_METHOD", method), ("REQUEST_URI", uri), ("REMOTE_ADDR", "127.0.0.1")] + extra
}

@Suite(.serialized) struct ServerTests {
  @Test func passesParametersHeadersAndBodyToTheHandler() throws {
    let seen = Captured<Request>()
    let running = try RunningServer { request in
      seen.value = request
      return Response(
        status: .ok, headerFields: [.contentType: "text/plain"], body: Array("hello".utf8))
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    let body = Array("a=1&b=2".utf8)
    let reply = try #require(
      try client.send(
        parameters: parameters(
          method: "POST", uri: "/lists/7?x=1",
          extra: [
            ("CONTENT_LENGTH", "\(body.count)"),
            ("CONTENT_TYPE", "application/x-www-form-urlencoded"),
            ("HTTP_COOKIE", "v=1"), ("HTTP_SEC_FETCH_SITE", "same-origin"), ("HTTPS", "on"),
          ]), body: body))
    #expect(reply.status == 200)
    #expect(reply.text == "hello")
    let request = try #require(seen.value)
    #expect(request.method == .post)
    #expect(request.path == "/lists/7")
    #expect(request.query == "x=1")
    #expect(request.headerFields[.cookie] == "v=1")
    #expect(request.headerFields[try #require(HTTPField.Name("Sec-Fetch-Site"))] == "same-origin")
    #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded")
    #expect(request.isHTTPS)
    #expect(request.body == body)
    #expect(!request.bodyTooLarge)
  }

  @Test func bodyOverTheCapIsNotReadAndIsFlagged() throws {
    let seen = Captured<Request>()
    let running = try RunningServer(maximumBodySize: 16) { request in
      seen.value = request
      return Response(status: request.bodyTooLarge ? .contentTooLarge : .ok)
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 17)
    let reply = try #require(
      try client.send(
        parameters: parameters(method: "POST", uri: "/", extra: [("CONTENT_LENGTH", "17")]),
        body: body))
    #expect(reply.status == 413)
    #expect(seen.value?.bodyTooLarge == true)
    #expect(seen.value?.body.isEmpty == true)
  }

  @Test func bodyAtTheCapIsRead() throws {
    let running = try RunningServer(maximumBodySize: 16) { request in
      Response(status: request.bodyTooLarge ? .contentTooLarge : .ok, body: request.body)
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    let body = [UInt8](repeating: UInt8(ascii: "y"), count: 16)
    let reply = try #require(
      try client.send(
        parameters: parameters(method: "POST", uri: "/", extra: [("CONTENT_LENGTH", "16")]),
        body: body))
    #expect(reply.status == 200)
    #expect(reply.body == body)
  }

  @Test func anUploadAddressHasItsOwnCapAndEveryOtherKeepsTheCommonOne() throws {
    let running = try RunningServer(maximumBodySize: 16, largerBodies: ["/upload": 64]) {
      request in
      Response(status: request.bodyTooLarge ? .contentTooLarge : .ok, body: request.body)
    }
    defer { _ = running.stop() }
    func send(_ method: String, _ uri: String, count: Int) throws -> (Int, Int) {
      let client = try running.client()
      defer { client.close() }
      let body = [UInt8](repeating: UInt8(ascii: "u"), count: count)
      let reply = try #require(
        try client.send(
          parameters: parameters(
            method: method, uri: uri, extra: [("CONTENT_LENGTH", String(count))]),
          body: body))
      return (reply.status, reply.body.count)
    }
    #expect(try send("POST", "/upload", count: 64) == (200, 64))
    #expect(try send("POST", "/upload?x=1", count: 64) == (200, 64))
    #expect(try send("POST", "/upload", count: 65).0 == 413)
    // Another address, a longer path, a spelling of it or another method: the common cap.
    #expect(try send("POST", "/other", count: 17).0 == 413)
    #expect(try send("POST", "/upload/more", count: 17).0 == 413)
    #expect(try send("POST", "/%75pload", count: 17).0 == 413)
    #expect(try send("PUT", "/upload", count: 17).0 == 413)
    #expect(try send("POST", "/other", count: 16) == (200, 16))
  }

  @Test func bodyLimitReadsThePathUpToItsQuery() {
    let configuration = ServerConfiguration(
      address: .loopback(port: 1), maximumBodySize: 10, largerBodies: ["/a": 100])
    #expect(configuration.bodyLimit(method: "POST", target: "/a") == 100)
    #expect(configuration.bodyLimit(method: "POST", target: "/a?b") == 100)
    #expect(configuration.bodyLimit(method: "POST", target: "/a/") == 10)
    #expect(configuration.bodyLimit(method: "GET", target: "/a") == 10)
    #expect(configuration.bodyLimit(method: nil, target: "/a") == 10)
    #expect(configuration.bodyLimit(method: "POST", target: nil) == 10)
  }

  @Test func sendsEverySetCookieAndALargeBody() throws {
    let large = [UInt8](repeating: UInt8(ascii: "z"), count: 300_000)
    let running = try RunningServer { _ in
      Response(
        status: .seeOther,
        headerFields: [.location: "/lists", .setCookie: "a=1; Path=/", .setCookie: "b=2; Path=/"],
        body: large)
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    let reply = try #require(try client.send(parameters: parameters(uri: "/")))
    #expect(reply.status == 303)
    #expect(reply.values("Set-Cookie") == ["a=1; Path=/", "b=2; Path=/"])
    #expect(reply.values("Location") == ["/lists"])
    #expect(reply.body == large)
  }

  @Test func headOmitsTheBody() throws {
    let running = try RunningServer { _ in
      Response(status: .ok, headerFields: [.contentLength: "5"], body: Array("hello".utf8))
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    let reply = try #require(try client.send(parameters: parameters(method: "HEAD", uri: "/")))
    #expect(reply.status == 200)
    #expect(reply.body.isEmpty)
    #expect(reply.values("Content-Length") == ["5"])
  }

  @Test func keptConnectionServesSeveralRequests() throws {
    let running = try RunningServer(threads: 1) { request in
      Response(status: .ok, body: Array(request.path.utf8))
    }
    defer { _ = running.stop() }
    let client = try running.client()
    defer { client.close() }
    for index in 1...3 {
      let reply = try #require(
        try client.send(
          parameters: parameters(uri: "/\(index)"), keepConnection: true, requestID: UInt16(index)))
      #expect(reply.text == "/\(index)")
    }
  }

  /// A kept connection that nginx closes while idle frees its worker: the
  /// one worker here must notice the close to answer the next connection.
  @Test func aKeptConnectionClosedWhileIdleFreesItsWorker() throws {
    let running = try RunningServer(threads: 1) { request in
      Response(status: .ok, body: Array(request.path.utf8))
    }
    defer { _ = running.stop() }
    for index in 1...3 {
      let kept = try running.client()
      let reply = try #require(
        try kept.send(parameters: parameters(uri: "/kept\(index)"), keepConnection: true))
      #expect(reply.text == "/kept\(index)")
      kept.close()
    }
    let next = try running.client(timeout: 5)
    defer { next.close() }
    let reply = try #require(try next.send(parameters: parameters(uri: "/next")))
    #expect(reply.text == "/next")
  }

  /// A request whose sender shuts its writing end straight after it (the
  /// hang-up and the request seen by one wait) is answered, not dropped.
  @Test func aRequestFollowedByAHangUpOnAKeptConnectionIsAnswered() throws {
    let running = try RunningServer(threads: 1) { request in
      Response(status: .ok, body: Array(request.path.utf8))
    }
    defer { _ = running.stop() }
    let client = try running.client(timeout: 5)
    defer { client.close() }
    let first = try #require(
      try client.send(parameters: parameters(uri: "/first"), keepConnection: true))
    #expect(first.text == "/first")
    // The worker now waits on the kept connection; both arrive at once.
    _ = try client.send(
      parameters: parameters(uri: "/second"), keepConnection: true, closeAfterSending: true)
    #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
    let second = try client.readReply()
    #expect(second.text == "/second")
  }

  @Test func socketIsNotWorldWritable() throws {
    let running = try RunningServer { _ in Response() }
    defer { _ = running.stop() }
    var info = stat()
    #expect(stat(running.socketPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o660)
  }

  /// The socket file's mode is set without the umask, which belongs to the
  /// whole process: servers starting at once on several threads leave it as
  /// it was (a changed one makes another thread's new 0700 directory 0600).
  @Test func serversStartingAtOnceLeaveTheProcessUmaskAlone() throws {
    let before = try processUmask()
    let rounds = 50
    let started = (0..<8).map { _ in Captured<Int>() }
    let group = DispatchGroup()
    for count in started {
      group.enter()
      Thread {
        defer { group.leave() }
        for round in 1...rounds {
          guard let running = try? RunningServer(threads: 1, handler: { _ in Response() })
          else { return }
          _ = running.stop()
          count.value = round
        }
      }.start()
    }
    group.wait()
    #expect(started.map { $0.value ?? 0 } == Array(repeating: rounds, count: started.count))
    let after = try processUmask()
    #expect(after == before)
  }

  @Test func clientThatLeavesMidResponseDoesNotWedgeTheWorker() throws {
    let large = [UInt8](repeating: 1, count: 2_000_000)
    let running = try RunningServer(threads: 1) { request in
      Response(status: .ok, body: request.path == "/large" ? large : Array("ok".utf8))
    }
    defer { _ = running.stop() }
    for _ in 0..<3 {
      let leaving = try running.client()
      _ = try leaving.send(parameters: parameters(uri: "/large"), closeAfterSending: true)
      leaving.close()
    }
    let client = try running.client()
    defer { client.close() }
    let reply = try #require(try client.send(parameters: parameters(uri: "/small")))
    #expect(reply.text == "ok")
  }

  @Test func stopLetsARequestInProgressFinishAndReturnsPromptly() throws {
    let started = DispatchSemaphore(value: 0)
    let running = try RunningServer(threads: 4) { _ in
      started.signal()
      usleep(500_000)
      return Response(status: .ok, body: Array("finished".utf8))
    }
    // An idle kept connection holds a worker in accept; stop must wake it too.
    let idle = try running.client()
    defer { idle.close() }
    _ = try idle.send(parameters: parameters(uri: "/warm"), keepConnection: true)

    let reply = Captured<FastCGITestClient.Reply>()
    let done = DispatchSemaphore(value: 0)
    let busy = try running.client()
    Thread {
      reply.value = try? busy.send(parameters: parameters(uri: "/slow"))
      busy.close()  // as nginx closes a connection it did not ask to keep
      done.signal()
    }.start()
    started.wait()  // /warm
    started.wait()  // /slow is in the handler now
    let begin = Date()
    #expect(running.stop(within: 2))
    #expect(Date().timeIntervalSince(begin) < 2)
    #expect(done.wait(timeout: .now() + 2) == .success)
    #expect(reply.value?.text == "finished")
    #expect(throws: FastCGITestClient.Failure.self) { try running.client() }
  }
}

/// The process's file mode creation mask, read without setting it (`umask`
/// can only be read by replacing it).
func processUmask() throws -> String {
  let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
  let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
  return String(try #require(line))
}

/// A value written by a handler thread and read by the test.
final class Captured<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value?
  var value: Value? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
