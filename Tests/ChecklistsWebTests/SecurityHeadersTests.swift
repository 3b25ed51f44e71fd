import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

@Suite struct SecurityHeadersTests {
  @Test func thePolicyIsStrict() {
    let directives = SecurityHeaders.contentSecurityPolicy.split(separator: ";").map {
      $0.trimmingOptionalWhitespace()
    }
    for directive in [
      "default-src 'none'", "style-src 'self'", "script-src 'self'", "img-src 'self'",
      "connect-src 'self'", "manifest-src 'self'", "form-action 'self'", "base-uri 'none'",
      "frame-ancestors 'none'",
    ] {
      #expect(directives.contains(Substring(directive)), "\(directive)")
    }
    #expect(!SecurityHeaders.contentSecurityPolicy.contains("unsafe"))
    #expect(!SecurityHeaders.contentSecurityPolicy.contains("*"))
  }

  @Test func aPerVisitorPageGetsEveryHeader() {
    let response = SecurityHeaders.applying(to: Response(status: 200, body: Array("<p>".utf8)))
    #expect(response.headerFields[.contentSecurityPolicy] == SecurityHeaders.contentSecurityPolicy)
    #expect(response.headerFields[.xContentTypeOptions] == "nosniff")
    #expect(response.headerFields[.referrerPolicy] == "same-origin")
    #expect(response.headerFields[.cacheControl] == "private, no-cache")
    #expect(response.body == Array("<p>".utf8))
  }

  @Test func aHandlersOwnHeaderWins() {
    let redirect = Response(
      status: .seeOther,
      headerFields: [.location: "/lists", HTTPField.Name("cache-control")!: "no-store"])
    let response = SecurityHeaders.applying(to: redirect)
    #expect(response.headerFields[values: .cacheControl] == ["no-store"])
    #expect(response.headerFields[.location] == "/lists")
    let common = SecurityHeaders.applying(SecurityHeaders.common, to: Response())
    #expect(common.headerFields[.cacheControl] == nil)
    #expect(common.headerFields[.xContentTypeOptions] == "nosniff")
  }
}
