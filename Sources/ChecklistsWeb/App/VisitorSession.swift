import FastCGI
import Preferences
import Storage

/// Who is asking, and their preferences for the length of one request.
///
/// A visitor is recognised only by a well-formed visitor cookie; anything
/// else (absent, too long, not hex, `../`) makes a new visitor, whose id is
/// sent back in a cookie. The id is never used as a path: the visitor's
/// directory is named after its hash (`VisitorDirectory`).
struct VisitorSession {
  /// Who the request's cookie names, and where their files are.
  struct Visitor {
    let id: VisitorID
    /// True when the request carried no valid visitor cookie.
    let isNew: Bool
    let directory: VisitorDirectory

    init(cookies: RequestCookies, dataDirectory: String) {
      if let value = cookies[RegisteredDefaults.visitorCookie],
        let id = VisitorID(cookieValue: value)
      {
        self.id = id
        isNew = false
      } else {
        id = VisitorID()
        isNew = true
      }
      directory = VisitorDirectory(dataDirectory: dataDirectory, visitorID: id.hex)
    }
  }

  let id: VisitorID
  /// True when the request carried no valid visitor cookie.
  let isNew: Bool
  let directory: VisitorDirectory
  /// The request's scope of the preferences (cookie → persistent → registration).
  let preferences: VisitorDefaults
  /// The request's cookies, as they came.
  let cookies: RequestCookies

  /// A session for `visitor`; their preferences are read here.
  init(request: Request, cookies: RequestCookies, visitor: Visitor, defaults: Defaults) {
    id = visitor.id
    isNew = visitor.isNew
    directory = visitor.directory
    self.cookies = cookies
    preferences = defaults.visitor(
      directory: directory.path, cookies: cookies, isHTTPS: request.isHTTPS)
  }

  /// The cookie that names a new visitor; nil for a known one.
  func visitorCookie(isHTTPS: Bool) -> SetCookie? {
    guard isNew else { return nil }
    return .longLived(
      name: RegisteredDefaults.visitorCookie, value: id.cookieValue, secure: isHTTPS)
  }
}
