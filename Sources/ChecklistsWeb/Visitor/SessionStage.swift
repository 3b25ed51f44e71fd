import FastCGI
import Preferences
import Storage

/// The visitor's session: their directory and preferences for the stages
/// and the handler after it, and their own cookie on the answer when they
/// are new or it falls due (error pages included). A handler that gave the
/// browser a new token (a link code redeemed) has set that cookie itself.
/// Every answer names its owner (`OwnerTag`) for the service worker. An
/// answer in the browser's language (no language chosen on Settings) says
/// `Vary: Accept-Language`.
struct SessionStage: Stage {
  let defaults: Defaults
  let devices: DeviceStore

  func respond(to request: Request, context call: VisitorCall, next: Next<VisitorCall>) throws
    -> Response
  {
    let session = VisitorSession(
      request: request, cookies: call.cookies, visitor: call.visitor, defaults: defaults,
      devices: devices, now: call.arrival.now)
    var call = call
    call.session = session
    var response = OwnerTag.tagging(try next(request, call), for: session.directory)
    if session.language.fromBrowser { response.headerFields.append(LanguageChoice.vary) }
    for cookie in session.visitorCookies(isHTTPS: request.isHTTPS)
    where !response.setsCookie(named: cookie.name) {
      response.setCookie(cookie)
    }
    return response
  }
}
