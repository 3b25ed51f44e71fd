import FastCGI
import Logging
import Storage

/// The routes of a share link (`/s/{secret}…`): the token in the path is
/// its only key. No visitor cookie is read or set and no session is made,
/// so anyone holding the link is served alike, with or without a cookie of
/// their own. A token that opens nothing (malformed, unknown, revoked, or
/// of a list that is deleted) gets the very answer of an unknown address.
/// A failure is logged by the route's pattern, never by the path that
/// carries the token.
///
/// Its stages, in order: `SharedMemo` (the page kept whole), the shared
/// pages' and the security headers, the error page, `LinkStage` (the link
/// the token opens), `SharedFormCheck` (read-only links, CSRF and
/// Origin), then the handler. A change goes through the store's one write
/// path (`SharedContext.updateList`).
final class SharedGroup: Sendable {
  let services: SharedServices
  private let errors: SharedErrorPages
  private let pipeline: Pipeline<SharedCall>
  /// Every answer under `/s/` gets these, whatever its status.
  private static let fields = SharedPages.fields + SecurityHeaders.perVisitorPage

  init(services: SharedServices, memo: ResponseMemo, errors: ErrorPages) {
    self.services = services
    let shared = SharedErrorPages(errors: errors)
    self.errors = shared
    pipeline = Pipeline([
      // First, so that a kept page is kept as sent, its headers in it, and
      // a hit runs no other stage; what it throws, the group's own catch
      // answers with the page the error stage gives.
      SharedMemo(memo: memo, shares: services.shares),
      HeaderStage<SharedCall>(fields: Self.fields),
      ErrorStage<SharedCall> { error, call in
        shared.response(
          for: error, route: call.match.route, token: call.token, language: call.language)
      },
      LinkStage(shares: services.shares),
      SharedFormCheck(csrf: services.csrf, logger: errors.logger),
    ])
  }

  /// Answers a shared route.
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, endpoint: SharedEndpoint
  ) -> Response {
    let language =
      AcceptLanguage.preferred(request.headerFields.value(of: .acceptLanguage)) ?? .english
    guard let token = match.parameters.secret, ShareToken.isWellFormed(token.utf8) else {
      return SecurityHeaders.applying(
        Self.fields,
        to: errors.response(
          for: WebError.pageNotFound, route: nil, token: "", language: language))
    }
    let call = SharedCall(
      match: match, arrival: arrival, token: token, digest: SecretDigest.of(token),
      lifetime: PageLifetime(), language: language)
    do {
      return try pipeline.respond(to: request, context: call) { request, call in
        try endpoint.run(request, call, services: services)
      }
    } catch {
      // The error stage catches what the stages after it throw.
      return SecurityHeaders.applying(
        Self.fields,
        to: errors.response(for: error, route: match.route, token: token, language: language))
    }
  }

  /// The answer to a path under `/s/` that no route takes: `403` for a
  /// `POST` when its token is a read-only link's (every change by a
  /// read-only link is refused alike), else the table's own `404` or `405`,
  /// in the browser's language as any unknown address's.
  func unrouted(_ request: Request, _ page: WebError) -> Response {
    if let refusal = readOnlyRefusal(request) {
      return SecurityHeaders.applying(Self.fields, to: refusal)
    }
    let language =
      AcceptLanguage.preferred(request.headerFields.value(of: .acceptLanguage)) ?? .english
    var response = errors.errors.renderer.errorResponse(page, language: language)
    response.headerFields.append(LanguageChoice.vary)
    return SecurityHeaders.applying(Self.fields, to: response)
  }

  private func readOnlyRefusal(_ request: Request) -> Response? {
    guard request.method == .post else { return nil }
    let token = String(request.path.dropFirst(SharedPages.prefix.count).prefix { $0 != "/" })
    guard let access = try? services.shares.access(presenting: token), !access.kind.allowsChanges
    else { return nil }
    let language =
      AcceptLanguage.preferred(request.headerFields.value(of: .acceptLanguage)) ?? .english
    return errors.response(
      for: SharedRefusal.readOnly, route: nil, token: token, language: language)
  }
}
