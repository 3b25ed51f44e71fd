import MetricsExposition
import Testing

/// The metrics listener's HTTP: only `GET`/`HEAD /metrics`, bounded heads.
struct MetricsHTTPTests {
  func verdict(_ text: String) -> MetricsHTTP.Verdict {
    MetricsHTTP.verdict(for: Array(text.utf8))
  }

  @Test func getAndHeadOfMetricsAreAnswered() {
    #expect(verdict("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") == .metrics(headOnly: false))
    #expect(verdict("HEAD /metrics HTTP/1.0\r\n\r\n") == .metrics(headOnly: true))
    #expect(verdict("GET /metrics?name[]=x HTTP/1.1\n\n") == .metrics(headOnly: false))
  }

  @Test func anythingElseIsRefused() {
    #expect(verdict("GET / HTTP/1.1\r\n\r\n") == .notFound)
    #expect(verdict("GET /metrics/ HTTP/1.1\r\n\r\n") == .notFound)
    #expect(verdict("POST /metrics HTTP/1.1\r\n\r\n") == .methodNotAllowed)
    #expect(verdict("GET /metrics\r\n\r\n") == .badRequest)
    #expect(verdict("GET /metrics HTTP/1.1\r\nHost: x\r\n") == .badRequest, "never finished")
    #expect(verdict("") == .badRequest)
    let large = "GET /metrics HTTP/1.1\r\nX: " + String(repeating: "x", count: 9_000)
    #expect(verdict(large) == .headTooLarge)
    #expect(verdict(large + "\r\n\r\n") == .headTooLarge)
  }

  @Test func anAnswerCarriesItsLengthAndAHeadAnswerNoBody() {
    let body = Array("a 1\n".utf8)
    let whole = String(
      decoding: MetricsHTTP.answer(.metrics(headOnly: false)) { body }, as: UTF8.self)
    #expect(whole.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(whole.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"))
    #expect(whole.contains("Content-Length: 4\r\n"))
    #expect(whole.hasSuffix("\r\n\r\na 1\n"))
    let head = String(
      decoding: MetricsHTTP.answer(.metrics(headOnly: true)) { body }, as: UTF8.self)
    #expect(head.hasSuffix("\r\n\r\n"))
    let refused = String(decoding: MetricsHTTP.answer(.methodNotAllowed) { [] }, as: UTF8.self)
    #expect(refused.hasPrefix("HTTP/1.1 405 ") && refused.contains("Allow: GET, HEAD\r\n"))
  }
}
