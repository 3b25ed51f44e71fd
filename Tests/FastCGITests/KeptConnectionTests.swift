import FastCGI
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// nginx reuses a kept connection for the next request as soon as it has the
/// previous answer, so whatever a request leaves unread on the connection,
/// or whatever the drain does to it, decides whether the next request (often
/// a POST, which nginx does not retry) is answered or lost as a 502.
@Suite struct KeptConnectionTests {
  /// libfcgi reads a connection in pieces of 8 KiB. When a body ends exactly
  /// at the end of a piece, the empty `FCGI_STDIN` record that closes it is
  /// still in the socket after `CONTENT_LENGTH` bytes were read; left there,
  /// the next accept on the kept connection reads it as the start of a
  /// request, refuses it and closes the connection under nginx's next request.
  @Test func aBodyEndingAtLibFCGIsReadBoundaryLeavesTheConnectionClean() throws {
    let running = try RunningServer(threads: 2, maximumBodySize: 32 * 1024) { request in
      Response(status: .ok, body: Array("\(request.method) \(request.body.count)".utf8))
    }
    defer { _ = running.stop() }
    func post(_ length: Int) -> [(String, String)] {
      parameters(method: "POST", uri: "/post", extra: [("CONTENT_LENGTH", "\(length)")])
    }
    // The length whose last byte is the last byte of libfcgi's second read;
    // its neighbours too, so that a change of the read size is still covered.
    let boundary = 2 * 8192 - FastCGITestClient.bytesBeforeBody(parameters: post(16_000))
    for length in (boundary - 16)...(boundary + 16) {
      let client = try FastCGITestClient(socketPath: running.socketPath, timeout: 5)
      defer { client.close() }
      let body = [UInt8](repeating: UInt8(ascii: "b"), count: length)
      let posted = try client.send(parameters: post(length), body: body, keepConnection: true)
      #expect(posted?.text == "POST \(length)")
      let next = Result { try client.send(parameters: parameters(uri: "/"), keepConnection: true) }
      #expect(
        (try? next.get())?.text == "GET 0",
        "the request after a body of \(length) bytes on the same connection: \(next)")
    }
  }

  /// A web server streaming a body may send its end in a write of its own,
  /// after the body's bytes; the server must wait for it rather than leave it
  /// to the next accept.
  @Test func theEndOfABodyArrivingLateIsConsumedBeforeTheNextRequest() throws {
    let running = try RunningServer(threads: 2) { request in
      Response(status: .ok, body: Array("\(request.method) \(request.body.count)".utf8))
    }
    defer { _ = running.stop() }
    let client = try FastCGITestClient(socketPath: running.socketPath, timeout: 5)
    defer { client.close() }
    let body = Array("name=Groceries".utf8)
    let posted = try client.send(
      parameters: parameters(
        method: "POST", uri: "/lists", extra: [("CONTENT_LENGTH", "\(body.count)")]),
      body: body, keepConnection: true, endOfBodyDelay: 0.2)
    #expect(posted?.text == "POST \(body.count)")
    let next = Result { try client.send(parameters: parameters(uri: "/"), keepConnection: true) }
    #expect((try? next.get())?.text == "GET 0", "the next request: \(next)")
  }

  /// A request nginx has already sent on a kept connection when the drain
  /// starts is in progress, not idle: it must be answered, not cut off.
  /// Each round stops a server right after writing such a request, the
  /// moment a worker is between waking up for it and taking it.
  @Test func aRequestAlreadySentWhenTheDrainStartsIsAnswered() throws {
    var lost: [String] = []
    for round in 0..<20 {
      let running = try RunningServer(threads: 1) { request in
        Response(status: .ok, body: Array(request.path.utf8))
      }
      let client = try FastCGITestClient(socketPath: running.socketPath, timeout: 5)
      let first = try client.send(parameters: parameters(uri: "/first"), keepConnection: true)
      #expect(first?.text == "/first")
      _ = try client.send(
        parameters: parameters(uri: "/second"), keepConnection: true, closeAfterSending: true)
      running.server.stop()
      let second = Result { try client.readReply() }
      // As nginx does once it has the answer to a request it did not ask to keep.
      client.close()
      #expect(running.stop(within: 5))
      if (try? second.get())?.text != "/second" { lost.append("round \(round): \(second)") }
    }
    #expect(lost.isEmpty, "requests lost to the drain: \(lost)")
  }
}
