import FastCGI
import Testing

@testable import ChecklistsWeb

@Suite struct SecurityHeadersTests {
  @Test func thePolicyIsStrict() {
    let directives = SecurityHeaders.contentSecurityPolicy.split(separator: ";").map {
      $0.trimmingOptionalWhitespace()
    }
    for directive in [
      "default-src 'none'", "style-src 'self'", "script-src 'self'", "img-src 'self'",
      "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
    ] {
      #expect(directives.contains(Substring(directive)), "\(directive)")
    }
    #expect(!SecurityHeaders.contentSecurityPolicy.contains("unsafe"))
    #expect(!SecurityHeaders.contentSecurityPolicy.contains("*"))
  }

  @Test func aPerVisitorPageGetsEveryHeader() {
    let response = SecurityHeaders.applying(to: Response(status: 200, body: Array("<p>".utf8)))
    #expect(response.header("Content-Security-Policy") == SecurityHeaders.contentSecurityPolicy)
    #expect(response.header("X-Content-Type-Options") == "nosniff")
    #expect(response.header("Referrer-Policy") == "same-origin")
    #expect(response.header("Cache-Control") == "private, no-cache")
    #expect(response.body == Array("<p>".utf8))
  }

  @Test func aHandlersOwnHeaderWins() {
    let redirect = Response(
      status: 303, headers: [("Location", "/lists"), ("cache-control", "no-store")])
    let response = SecurityHeaders.applying(to: redirect)
    #expect(response.headers(named: "Cache-Control") == ["no-store"])
    #expect(response.header("Location") == "/lists")
    let common = SecurityHeaders.applying(SecurityHeaders.common, to: Response())
    #expect(common.header("Cache-Control") == nil)
    #expect(common.header("X-Content-Type-Options") == "nosniff")
  }
}
