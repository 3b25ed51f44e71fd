import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

@Suite struct CSRFTests {
  let csrf = CSRF(secret: ServerSecret(bytes: Array(0..<32))!)
  let visitor = VisitorID(cookieValue: "00112233445566778899aabbccddeeff")!
  let other = VisitorID(cookieValue: "ffeeddccbbaa99887766554433221100")!

  private func post(host: String = "checklists.example", _ headerFields: HTTPFields = [:])
    -> Request
  {
    Request(method: .post, path: "/lists", authority: host, headerFields: headerFields)
  }

  @Test func aTokenIs64HexDigitsAndStableForAVisitor() {
    let token = csrf.token(for: visitor)
    #expect(token.utf8.count == 64)
    #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(csrf.token(for: visitor) == token)
    #expect(csrf.isValid(token, for: visitor))
  }

  @Test func aTokenIsBoundToOneVisitorAndOneSecret() {
    let token = csrf.token(for: visitor)
    #expect(csrf.token(for: other) != token)
    #expect(!csrf.isValid(token, for: other))
    #expect(!csrf.isValid(csrf.token(for: other), for: visitor))
    let otherServer = CSRF(secret: ServerSecret(bytes: Array(repeating: 7, count: 32))!)
    #expect(!otherServer.isValid(token, for: visitor))
    #expect(otherServer.token(for: visitor) != token)
  }

  @Test func wrongTokensAreRefused() {
    let token = csrf.token(for: visitor)
    let flippedLast = String(token.dropLast()) + (token.last == "0" ? "1" : "0")
    let flippedFirst = (token.first == "0" ? "1" : "0") + String(token.dropFirst())
    let wrong = [
      "", "0", flippedLast, flippedFirst, token.uppercased(), String(token.dropLast()),
      token + "0", token + token, " " + token, String(token.dropLast(2)) + "zz",
      String(repeating: "0", count: 64), visitor.hex, String(repeating: "é", count: 32),
    ]
    for value in wrong where value != token {
      #expect(!csrf.isValid(value, for: visitor), "\(value)")
    }
  }

  @Test func theVerdictChecksOriginThenVisitorThenToken() {
    let token = csrf.token(for: visitor)
    let sameOrigin = post([.origin: "http://checklists.example", .secFetchSite: "same-origin"])
    #expect(csrf.verdict(for: sameOrigin, visitor: visitor, submittedToken: token) == .allowed)
    #expect(csrf.verdict(for: post(), visitor: visitor, submittedToken: token) == .allowed)
    #expect(
      csrf.verdict(for: post(), visitor: visitor, submittedToken: nil) == .refused(.missingToken))
    #expect(
      csrf.verdict(for: post(), visitor: visitor, submittedToken: "") == .refused(.missingToken))
    #expect(
      csrf.verdict(for: post(), visitor: visitor, submittedToken: "x") == .refused(.wrongToken))
    #expect(
      csrf.verdict(for: post(), visitor: visitor, submittedToken: csrf.token(for: other))
        == .refused(.wrongToken))
    #expect(csrf.verdict(for: post(), visitor: nil, submittedToken: token) == .refused(.noVisitor))
    // The right token does not excuse a cross-site request.
    let crossSite = post([.secFetchSite: "cross-site"])
    #expect(
      csrf.verdict(for: crossSite, visitor: visitor, submittedToken: token)
        == .refused(.crossSiteFetch))
    let foreign = post([.origin: "https://evil.example"])
    #expect(
      csrf.verdict(for: foreign, visitor: visitor, submittedToken: token)
        == .refused(.originMismatch))
  }

  @Test func aConfiguredPublicOriginDecidesTheOriginCheck() {
    let configured = CSRF(
      secret: ServerSecret(bytes: Array(0..<32))!,
      publicOrigin: PublicOrigin("https://lists.example.org"))
    let token = configured.token(for: visitor)
    #expect(token == csrf.token(for: visitor))  // the origin is no part of the token
    let fromSite = post(host: "127.0.0.1", [.origin: "https://lists.example.org"])
    #expect(configured.verdict(for: fromSite, visitor: visitor, submittedToken: token) == .allowed)
    #expect(
      configured.verdict(for: fromSite, visitor: visitor, submittedToken: "x")
        == .refused(.wrongToken))
    // Host and Origin agree, but it is not the configured origin.
    let local = post(host: "127.0.0.1:8080", [.origin: "http://127.0.0.1:8080"])
    #expect(
      configured.verdict(for: local, visitor: visitor, submittedToken: token)
        == .refused(.originMismatch))
    #expect(csrf.verdict(for: local, visitor: visitor, submittedToken: token) == .allowed)
  }

  @Test func theVerdictReadsTheFormsFirstCsrfField() throws {
    let token = csrf.token(for: visitor)
    let good = try FormDecoder.decode(Array("csrf=\(token)&csrf=bad&text=x".utf8))
    #expect(csrf.verdict(for: post(), visitor: visitor, form: good) == .allowed)
    let smuggled = try FormDecoder.decode(Array("csrf=bad&csrf=\(token)".utf8))
    #expect(csrf.verdict(for: post(), visitor: visitor, form: smuggled) == .refused(.wrongToken))
    let none = try FormDecoder.decode(Array("text=x".utf8))
    #expect(csrf.verdict(for: post(), visitor: visitor, form: none) == .refused(.missingToken))
    #expect(ForgeryVerdict.allowed.isAllowed)
    #expect(!ForgeryVerdict.refused(.wrongToken).isAllowed)
  }

  @Test func aSecretMustBe32Bytes() {
    #expect(ServerSecret(bytes: []) == nil)
    #expect(ServerSecret(bytes: Array(repeating: 1, count: 31)) == nil)
    #expect(ServerSecret(bytes: Array(repeating: 1, count: 33)) == nil)
    let a = CSRF(secret: .random())
    let b = CSRF(secret: .random())
    #expect(a.token(for: visitor) != b.token(for: visitor))
  }
}
