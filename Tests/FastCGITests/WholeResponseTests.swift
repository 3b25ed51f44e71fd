import FastCGI
import Foundation
import Testing

/// Each answer goes out as its FastCGI records in one write
/// (`LibFCGIRequest.respond`): whole at every size (under libfcgi's 8 KB
/// buffer, over it, at a record's most content and past it, over many
/// records), nothing written after the request's end, so that the next
/// request on the kept connection is read cleanly; a `HEAD` gets the head
/// alone.
@Suite struct WholeResponseTests {
  @Test func answersOfEverySizeArriveWholeOnAKeptConnection() throws {
    let running = try RunningServer(threads: 2) { request in
      let size = Int(request.path.dropFirst()) ?? 0
      var body = [UInt8](repeating: 0, count: size)
      for index in body.indices { body[index] = UInt8(truncatingIfNeeded: index % 251) }
      return Response(status: .ok, body: body)
    }
    defer { _ = running.stop() }
    let client = try FastCGITestClient(socketPath: running.socketPath, timeout: 5)
    defer { client.close() }
    let sizes = [
      1, 100, 8_000, 8_192, 10_000, 65_400, 65_527, 65_528, 65_529, 131_056, 200_003, 1_000_000,
    ]
    for size in sizes {
      let reply = try client.send(parameters: parameters(uri: "/\(size)"), keepConnection: true)
      #expect(reply?.status == 200, "\(size)")
      #expect(reply?.body.count == size, "\(size)")
      #expect(
        reply?.body.enumerated().allSatisfy { $1 == UInt8(truncatingIfNeeded: $0 % 251) } == true,
        "\(size)")
      #expect(reply?.values("Content-Length") == ["\(size)"], "\(size)")
    }
    let head = try client.send(
      parameters: parameters(method: "HEAD", uri: "/10000"), keepConnection: true)
    #expect(head?.status == 200)
    #expect(head?.body.isEmpty == true)
    #expect(head?.values("Content-Length") == ["10000"])
    let last = try client.send(parameters: parameters(uri: "/5"), keepConnection: true)
    #expect(last?.body.count == 5)
  }
}
