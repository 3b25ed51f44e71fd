import FastCGI
import Logging
import Preferences

/// The routes of a visitor's own browser: every screen and change of their
/// lists, settings and devices, reached with the visitor cookie.
///
/// Its stages, in order: `MemoKeep` (a revisited screen's answer kept),
/// the security headers, `SessionStage` (the visitor's session and
/// cookie), the error page, `PreferencesStage` (the visitor's standing;
/// the preferences committed once), `FormCheck` (CSRF and Origin on every
/// change), then the handler.
final class VisitorGroup: Sendable {
  let services: VisitorServices
  private let errors: ErrorPages
  private let pipeline: Pipeline<VisitorCall>

  init(services: VisitorServices, defaults: Defaults, memo: ResponseMemo, errors: ErrorPages) {
    self.services = services
    self.errors = errors
    pipeline = Pipeline([
      MemoKeep(memo: memo),
      HeaderStage<VisitorCall>(fields: SecurityHeaders.perVisitorPage),
      SessionStage(defaults: defaults, devices: services.devices),
      ErrorStage<VisitorCall> { error, call in
        errors.response(
          for: error, route: call.match.route, language: call.session.language.language)
      },
      PreferencesStage(logger: errors.logger),
      FormCheck(csrf: services.csrf, logger: errors.logger),
    ])
  }

  /// Answers a visitor's route.
  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, endpoint: VisitorEndpoint
  ) -> Response {
    let cookies = request.cookies
    let call = VisitorCall(
      match: match, arrival: arrival, cookies: cookies,
      visitor: VisitorSession.Visitor(
        cookies: cookies, isHTTPS: request.isHTTPS, devices: services.devices,
        now: arrival.now),
      lifetime: PageLifetime())
    do {
      return try pipeline.respond(to: request, context: call) { request, call in
        try endpoint.run(request, call, services: services)
      }
    } catch {
      // The error stage catches what the handler throws; this is for a
      // stage before it.
      return SecurityHeaders.applying(to: errors.response(for: error, route: match.route))
    }
  }
}
