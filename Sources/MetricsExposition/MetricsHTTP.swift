/// The plain HTTP of the metrics listener: a request's head in, the whole
/// answer out. Only `GET` (or `HEAD`) of `/metrics` is answered with the
/// metrics; any other path is `404`, another method `405`, a head that is
/// not HTTP `400`, one larger than `maximumHeadBytes` `431`.
package enum MetricsHTTP {
  /// A scraper's request is a few hundred bytes.
  package static let maximumHeadBytes = 8 * 1024
  package static let path = "/metrics"
  /// Prometheus' text format, version 0.0.4.
  package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// What a request's head (everything up to its blank line, or what
  /// arrived of it) asks for.
  package enum Verdict: Equatable, Sendable {
    case metrics(headOnly: Bool)
    case notFound
    case methodNotAllowed
    case badRequest
    case headTooLarge
  }

  /// The length of the head at the start of `bytes` (through its empty
  /// line), or nil while it has not all arrived.
  package static func headLength(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
      let next = newline + 1
      if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
      if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"),
        bytes[next + 1] == UInt8(ascii: "\n")
      {
        return next + 2
      }
      index = next
    }
    return nil
  }

  /// The verdict on what arrived of a request (all of it, or what came
  /// before the read timed out or the peer stopped sending).
  package static func verdict(for bytes: [UInt8]) -> Verdict {
    guard let length = headLength(bytes) else {
      return bytes.count >= maximumHeadBytes ? .headTooLarge : .badRequest
    }
    guard length <= maximumHeadBytes else { return .headTooLarge }
    let head = bytes.prefix(length)
    let line = head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, parts[2].starts(with: "HTTP/1.".utf8) else { return .badRequest }
    let target = parts[1].prefix { $0 != UInt8(ascii: "?") }
    guard target.elementsEqual(path.utf8) else { return .notFound }
    switch String(decoding: parts[0], as: UTF8.self) {
    case "GET": return .metrics(headOnly: false)
    case "HEAD": return .metrics(headOnly: true)
    default: return .methodNotAllowed
    }
  }

  /// The whole answer to `verdict`; `metrics` is asked for only when sent.
  package static func answer(_ verdict: Verdict, metrics: () -> [UInt8]) -> [UInt8] {
    switch verdict {
    case .metrics(let headOnly):
      let body = metrics()
      return head("200 OK", type: contentType, length: body.count) + (headOnly ? [] : body)
    case .notFound: return plain("404 Not Found", "Not found: the metrics are at /metrics.\n")
    case .methodNotAllowed:
      return plain("405 Method Not Allowed", "Only GET and HEAD.\n", extra: "Allow: GET, HEAD\r\n")
    case .badRequest: return plain("400 Bad Request", "Bad request.\n")
    case .headTooLarge:
      return plain("431 Request Header Fields Too Large", "Request too large.\n")
    }
  }

  private static func plain(_ status: String, _ text: String, extra: String = "") -> [UInt8] {
    head(status, type: "text/plain; charset=utf-8", length: text.utf8.count, extra: extra)
      + Array(text.utf8)
  }

  private static func head(_ status: String, type: String, length: Int, extra: String = "")
    -> [UInt8]
  {
    Array(
      ("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n"
        + "Cache-Control: no-store\r\n\(extra)Connection: close\r\n\r\n").utf8)
  }
}
