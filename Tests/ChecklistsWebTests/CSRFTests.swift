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

  /// Tokens are kept for recent visitors: a kept one, and one made again
  /// after it was pushed out by others, are the token the key makes.
  @Test func aKeptTokenIsTheOneTheKeyMakes() {
    let first = csrf.token(for: visitor)
    #expect(csrf.token(for: visitor) == first)
    for _ in 0...CSRF.recentCapacity { _ = csrf.token(for: VisitorID()) }
    #expect(csrf.token(for: visitor) == first)
    let fresh = CSRF(secret: ServerSecret(bytes: Array(0..<32))!)
    #expect(fresh.token(for: visitor) == first)
    #expect(fresh.isValid(first, for: visitor))
    #expect(csrf.token(for: other) == fresh.token(for: other))
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

  // MARK: Shared pages

  static let linkDigest = String(repeating: "ab", count: 32)
  static let otherDigest = String(repeating: "cd", count: 32)

  private func sharedPost(_ token: String?, _ headerFields: HTTPFields = [:]) -> (
    Request, FormData
  ) {
    let form = FormData(fields: token.map { [.init(name: CSRF.fieldName, value: $0)] } ?? [])
    return (post(headerFields), form)
  }

  @Test func aSharedPagesTokenIsBoundToItsLinkAndToNoVisitor() {
    let token = csrf.token(forShare: Self.linkDigest)
    #expect(token.utf8.count == 64 && token.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(csrf.token(forShare: Self.linkDigest) == token)
    #expect(csrf.token(forShare: Self.otherDigest) != token)
    // Never a visitor's token, whichever visitor.
    #expect(!csrf.isValid(token, for: visitor))
    let otherServer = CSRF(secret: ServerSecret(bytes: Array(repeating: 7, count: 32))!)
    #expect(otherServer.token(forShare: Self.linkDigest) != token)
    let (request, form) = sharedPost(token)
    #expect(csrf.verdict(for: request, share: Self.linkDigest, form: form) == .allowed)
    #expect(
      csrf.verdict(for: request, share: Self.otherDigest, form: form) == .refused(.wrongToken))
    for wrong in [
      "", String(token.dropLast()), token.uppercased(), csrf.token(for: visitor),
      String(token.dropLast()) + (token.last == "0" ? "1" : "0"),
    ] {
      let (request, form) = sharedPost(wrong)
      #expect(
        csrf.verdict(for: request, share: Self.linkDigest, form: form) != .allowed, "\(wrong)")
    }
    let (missing, none) = sharedPost(nil)
    #expect(
      csrf.verdict(for: missing, share: Self.linkDigest, form: none) == .refused(.missingToken))
  }

  /// A shared page is sent with `Referrer-Policy: no-referrer`, so a
  /// browser posts its forms with `Origin: null`: taken with
  /// `Sec-Fetch-Site: same-origin` only; any other origin as usual.
  @Test func aSharedPagesFormsMayComeWithANullOriginFromTheSameOrigin() {
    let token = csrf.token(forShare: Self.linkDigest)
    let cases: [(HTTPFields, ForgeryVerdict)] = [
      ([.origin: "null", .secFetchSite: "same-origin"], .allowed),
      ([.origin: " null ", .secFetchSite: " Same-Origin"], .allowed),
      ([.origin: "null"], .refused(.nullOrigin)),
      ([.origin: "null", .secFetchSite: "same-site"], .refused(.nullOrigin)),
      ([.origin: "null", .secFetchSite: "cross-site"], .refused(.nullOrigin)),
      ([.origin: "null", .secFetchSite: "none"], .refused(.nullOrigin)),
      ([.origin: "http://checklists.example", .secFetchSite: "same-origin"], .allowed),
      ([.origin: "https://evil.example"], .refused(.originMismatch)),
      ([.secFetchSite: "cross-site"], .refused(.crossSiteFetch)),
      ([:], .allowed),
    ]
    for (fields, expected) in cases {
      let (request, form) = sharedPost(token, fields)
      #expect(
        csrf.verdict(for: request, share: Self.linkDigest, form: form) == expected, "\(fields)")
    }
    // The visitor's pages keep refusing `null`, whatever Sec-Fetch-Site says.
    let own = post([.origin: "null", .secFetchSite: "same-origin"])
    #expect(
      csrf.verdict(for: own, visitor: visitor, submittedToken: csrf.token(for: visitor))
        == .refused(.nullOrigin))
  }
}
