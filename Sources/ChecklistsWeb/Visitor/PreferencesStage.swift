import FastCGI
import Logging

/// The visitor's standing and preferences around the handler: a visitor
/// whose browsers or preferences cannot be read is answered with the
/// page that says so, and what the handler changed in the preferences is
/// committed once, after it succeeded (`Preferences.plist` once, the
/// cookie-backed ones as `Set-Cookie`). A failed handler commits nothing.
struct PreferencesStage: Stage {
  let logger: Logger

  func respond(to request: Request, context call: VisitorCall, next: Next<VisitorCall>) throws
    -> Response
  {
    let session: VisitorSession = call.session
    if let problem = call.visitor.problem { throw problem }
    try session.preferences.requireReachable()
    if let problem = session.preferences.loadProblem {
      // The file was kept aside; the next request runs on the defaults.
      logger.error("preferences: \(problem) (\(session.directory.path))")
      throw WebError.unreadableSettings
    }
    var response = try next(request, call)
    for cookie in session.preferenceCookies(for: try session.preferences.commit()) {
      response.setCookie(cookie)
    }
    return response
  }
}
