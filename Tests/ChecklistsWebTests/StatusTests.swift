import FastCGI
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Every status the backend sends is one of swift-http-types' named
/// statuses, so its head carries the standard reason phrase.
@Suite struct StatusTests {
  static let errors: [WebError] = [
    .listNotFound, .itemNotFound, .pageNotFound, .methodNotAllowed(allow: "GET, HEAD"), .forbidden,
    .tooLarge, .unsupportedMediaType, .badRequest("Bad."),
    .unprocessable("Too long.", backHref: "/lists", backLabel: "All Lists"), .unreadableData,
    .unreadableSettings, .busy, .internalError,
  ]

  static let answers: [Response] = [
    .html([]), .plainText([]), .page([], etag: ETag(body: [])),
    ConditionalGET.notModified(standingFor: .page([], etag: ETag(body: []))),
    .redirect(to: "/lists"),
    HealthPage.respond(to: Request(method: .get, path: HealthPage.path), ready: { true }),
    HealthPage.respond(to: Request(method: .get, path: HealthPage.path), ready: { false }),
    HealthPage.respond(to: Request(method: .post, path: HealthPage.path), ready: { true }),
  ]

  @Test func everyStatusHasItsStandardPhrase() {
    let statuses = Self.errors.map(\.status) + Self.answers.map(\.status)
    #expect(
      Set(statuses.map(\.code)) == [200, 303, 304, 400, 403, 404, 405, 413, 415, 422, 500, 503])
    for status in statuses {
      #expect(!status.reasonPhrase.isEmpty, "\(status.code)")
      #expect(status.reasonPhrase == Response.reasonPhrase(of: .init(code: status.code)))
    }
  }

  @Test func anErrorPageCarriesItsStatusAndFields() throws {
    let browser = try ApplicationHarness()
    let refused = browser.get("/lists/1", method: .put)
    #expect(refused.status == .methodNotAllowed)
    #expect(refused.status.reasonPhrase == "Method Not Allowed")
    #expect(refused.headerFields[.allow] == "GET, HEAD, POST")
    #expect(refused.headerFields[.contentType] == "text/html; charset=utf-8")
    #expect(browser.text(refused).contains("Error 405"))
  }

  @Test func aRedirectIsItsLocationAndAPlainTextBody() {
    let redirect = Response.redirect(to: "/lists/2")
    #expect(redirect.status == .seeOther)
    #expect(redirect.headerFields.map(\.name) == [.location, .contentType])
    #expect(redirect.headerFields[.location] == "/lists/2")
    #expect(redirect.headerFields[.contentType] == "text/plain; charset=utf-8")
    #expect(redirect.body == Array("See /lists/2\n".utf8))
  }
}
