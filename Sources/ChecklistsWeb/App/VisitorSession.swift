import FastCGI
import Foundation
import Preferences
import Storage

/// Who is asking, and their preferences for the length of one request.
///
/// A visitor is recognised only by a well-formed visitor cookie whose
/// browser token still acts for an owner (`DeviceStore.resolve`); anything
/// else (absent, too long, not hex, `../`, a browser signed out) makes a
/// new visitor, whose token is sent back in a cookie. The token is never
/// used as a path: the owner's directory is named after a hash
/// (`VisitorDirectory`).
struct VisitorSession {
  /// Who the request's cookie names, and where their files are.
  struct Visitor {
    /// The browser's token (its visitor cookie's id).
    let id: VisitorID
    /// True when the request carried no valid visitor cookie, or that of a
    /// browser signed out.
    let isNew: Bool
    /// The browser's entry on its owner's Devices screen; nil while the
    /// owner has only this one browser (or it is new).
    let browserID: Int?
    /// Why the browser's owner could not be looked up (the page says so).
    let problem: (any Error)?
    /// True when the visitor cookie must be sent again (see `VisitorCookie`):
    /// it is a day old or has no day. Always true for a new visitor.
    let needsCookie: Bool
    /// When a response that does not send the cookie stops being the right
    /// answer to this request (seconds since 1970): the moment the cookie
    /// falls due for renewal.
    let cookieDue: Int64
    let directory: VisitorDirectory
    /// The day (since 1970, UTC) the cookie was judged by, and the day a
    /// renewed cookie carries.
    let today: Int

    init(cookies: Cookies, isHTTPS: Bool, devices: DeviceStore, now: Date) {
      self.init(
        cookie: Self.cookie(in: cookies, isHTTPS: isHTTPS), devices: devices, now: now)
    }

    /// The request's visitor cookie, when well-formed.
    static func cookie(in cookies: Cookies, isHTTPS: Bool) -> VisitorCookie? {
      cookies[cookieName(isHTTPS: isHTTPS)].flatMap { VisitorCookie(value: $0) }
    }

    /// The visitor `cookie` names (a new one for none).
    init(cookie: VisitorCookie?, devices: DeviceStore, now: Date) {
      let today = VisitorCookie.today(now: now)
      var problem: (any Error)?
      if let cookie, let owner = Self.owner(of: cookie.id, in: devices, now: now, problem: &problem)
      {
        id = cookie.id
        isNew = false
        browserID = owner.browserID
        directory = owner.directory
        needsCookie = problem == nil && cookie.needsRenewal(today: today)
        cookieDue = needsCookie ? Int64.min : cookie.renewalDue(today: today)
      } else {
        id = VisitorID()
        isNew = true
        browserID = nil
        directory = VisitorDirectory(dataDirectory: devices.dataDirectory, visitorID: id.hex)
        needsCookie = true
        cookieDue = Int64.min
      }
      self.problem = problem
      self.today = today
    }

    /// The only cookie that names a browser: `__Host-visitor` under HTTPS,
    /// `visitor` over HTTP.
    ///
    /// Under HTTPS a plain `visitor` cookie is never adopted, not even once
    /// to move it over: a sibling host (`Domain=`) or anyone on the path of
    /// a plain HTTP request can plant one, and the browser that took it
    /// would store its lists where the planter reads them (session
    /// fixation). A window for ids whose directory already exists would not
    /// help: one post makes a directory for any id the planter likes. So
    /// the browser starts afresh (its plain cookie is dropped with the new
    /// one); browsers of an HTTPS site have carried `__Host-visitor` since
    /// it was introduced, each moved over on its first visit then.
    static func cookieName(isHTTPS: Bool) -> String {
      Cookie.name(VisitorCookie.name, secure: isHTTPS)
    }

    /// The owner `token` acts for; nil when it was signed out. When the
    /// look-up fails, `problem` says why and the browser keeps its cookie:
    /// the request is answered with an error page, never as somebody new
    /// (an owner's devices file that cannot be read refuses every browser
    /// of theirs: `503` until it is repaired).
    private static func owner(
      of token: VisitorID, in devices: DeviceStore, now: Date, problem: inout (any Error)?
    ) -> (directory: VisitorDirectory, browserID: Int?)? {
      do {
        switch try devices.resolveKept(token: token.hex, now: now) {
        case .owner(let directory, let browserID): return (directory, browserID)
        case .signedOut: return nil
        }
      } catch is DeviceStore.Unreadable {
        problem = WebError.devicesUnreadable
        return (VisitorDirectory(dataDirectory: devices.dataDirectory, visitorID: token.hex), nil)
      } catch {
        problem = error
        return (VisitorDirectory(dataDirectory: devices.dataDirectory, visitorID: token.hex), nil)
      }
    }
  }

  /// The browser's token.
  let id: VisitorID
  /// True when the request carried no valid visitor cookie.
  let isNew: Bool
  /// The browser's entry on its owner's Devices screen (see `Visitor.browserID`).
  let browserID: Int?
  /// True when this response sends the visitor cookie (see `Visitor.needsCookie`).
  let sendsVisitorCookie: Bool
  let directory: VisitorDirectory
  /// The request's scope of the preferences (cookie → persistent → registration).
  let preferences: VisitorDefaults
  /// The request's cookies, as they came.
  let cookies: Cookies
  let isHTTPS: Bool
  let today: Int
  /// The language of the pages, and whether it came from the browser.
  let language: LanguageChoice

  /// A session for `visitor`; their preferences are read here. A returning
  /// visitor whose cookie is due has it renewed, with the cookie-backed
  /// preferences it carries, and their directory marked active.
  init(
    request: Request, cookies: Cookies, visitor: Visitor, defaults: Defaults,
    devices: DeviceStore, now: Date
  ) {
    id = visitor.id
    isNew = visitor.isNew
    browserID = visitor.browserID
    sendsVisitorCookie = visitor.needsCookie
    directory = visitor.directory
    self.cookies = cookies
    isHTTPS = request.isHTTPS
    today = visitor.today
    var cookieValues: [String: String] = [:]
    for key in RegisteredDefaults.cookieBacked.keys {
      cookieValues[key] = cookies.value(named: key, isHTTPS: request.isHTTPS)
    }
    preferences = defaults.visitor(directory: directory.path, cookieValues: cookieValues)
    language = LanguageChoice(
      preferences: preferences, acceptLanguage: request.headerFields.value(of: .acceptLanguage))
    if sendsVisitorCookie && !isNew {
      preferences.renewCookies()
      directory.markActive(in: defaults.documents)
      defaults.markActive(directory: directory.path)
      if browserID != nil { try? devices.noteSeen(owner: directory, token: id.hex, now: now) }
    }
  }

  /// The visitor cookie to send (a new visitor's, or a renewal), with the
  /// deletion of the plain one an HTTPS browser kept from before
  /// `__Host-`; empty when the browser's cookie is current.
  func visitorCookies(isHTTPS: Bool) -> [Cookie] {
    guard sendsVisitorCookie else { return [] }
    let cookie = Cookie.longLived(
      name: VisitorCookie.name, value: VisitorCookie(id: id, day: today).value, secure: isHTTPS)
    return [cookie] + plainDeletion(of: VisitorCookie.name)
  }

  /// The cookies that carry the preferences' cookie changes (in order; see
  /// `VisitorDefaults.commit()`), named `__Host-` under HTTPS. A renewal or
  /// a removal also drops the plain cookie of the key that an HTTPS browser
  /// kept from before `__Host-`. A later cookie replaces an earlier one of
  /// the same name (`Response.setCookie`).
  func preferenceCookies(for changes: [CookieChange]) -> [Cookie] {
    var sent: [Cookie] = []
    for change in changes {
      switch change {
      case .set(let key, let value):
        sent.append(.longLived(name: key, value: value, secure: isHTTPS))
      case .renew(let key, let value):
        sent.append(.longLived(name: key, value: value, secure: isHTTPS))
        sent += plainDeletion(of: key)
      case .remove(let key):
        sent.append(.deletion(name: key, secure: isHTTPS))
        sent += plainDeletion(of: key)
      }
    }
    return sent
  }

  /// The deletion of the plain cookie `name` when an HTTPS request still
  /// carries it (set before cookies were `__Host-` there); else nothing.
  private func plainDeletion(of name: String) -> [Cookie] {
    isHTTPS && cookies[name] != nil ? [.plainDeletion(name: name)] : []
  }
}
