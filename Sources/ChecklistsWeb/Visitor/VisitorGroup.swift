import Documents
import FastCGI
import Foundation
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
  private let memo: ResponseMemo
  private let pipeline: Pipeline<VisitorCall>

  init(services: VisitorServices, defaults: Defaults, memo: ResponseMemo, errors: ErrorPages) {
    self.services = services
    self.errors = errors
    self.memo = memo
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
    let cookie = VisitorSession.Visitor.cookie(in: cookies, isHTTPS: request.isHTTPS)
    return DirectoryView.reading(view(for: cookie, now: arrival.now)) {
      let call = VisitorCall(
        match: match, arrival: arrival, cookies: cookies,
        visitor: VisitorSession.Visitor(
          cookie: cookie, devices: services.devices, now: arrival.now),
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

  /// The request's view of the directory of the owner its browser acted
  /// for last time, taken before anything there is read (its devices file,
  /// to know the browser still acts for them): one `stat` of the directory
  /// then answers for the devices file, the preferences and the lists
  /// (`ViewedDocuments`), and is the version `MemoKeep` keeps a page for.
  /// Nil for a browser not seen lately, or a directory changed too
  /// recently to be told from a later change (`ResponseMemo.Version`).
  private func view(for cookie: VisitorCookie?, now: Date) -> DirectoryView? {
    guard let cookie, let owner = services.devices.keptOwner(ofToken: cookie.id.hex) else {
      return nil
    }
    return memo.version(of: owner.path, now: now)?.view
  }
}
