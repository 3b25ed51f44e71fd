import Foundation

/// The token a browser had before it redeemed a link code, kept in a
/// cookie of its own for `keptDays`, so that it can switch back to its
/// own lists: a code sent by someone else (a forced join) then loses
/// nothing. The cookie's value is a visitor cookie's (`VisitorCookie`):
/// the token and the day it was put aside.
///
/// Nothing is kept on the server: the old token still acts for its owner
/// (redeeming signs nothing out), so whoever holds this cookie is that
/// owner's browser, as with the visitor cookie itself.
struct PreviousBrowser: Equatable {
  static let cookieName = "previous-visitor"
  /// How long the way back is offered.
  static let keptDays = 30

  /// The token and the day it was put aside.
  let kept: VisitorCookie

  /// The token `id`, put aside on `day`.
  init(id: VisitorID, day: Int) {
    kept = VisitorCookie(id: id, day: day)
  }

  /// The browser's previous token; nil when there is none, it is
  /// malformed, or it was put aside `keptDays` ago or more. Under HTTPS
  /// only `__Host-previous-visitor` counts: a plain cookie may have been
  /// planted from a sibling host or over plain HTTP, and switching to it
  /// would store this browser's lists where the planter reads them.
  init?(cookies: Cookies, isHTTPS: Bool, today: Int) {
    guard let value = cookies[Cookie.name(Self.cookieName, secure: isHTTPS)],
      let kept = VisitorCookie(value: value), let day = kept.day,
      day <= today, today - day < Self.keptDays
    else { return nil }
    self.kept = kept
  }

  var id: VisitorID { kept.id }

  /// The last day it is offered (days since 1970, UTC).
  var lastDay: Int { (kept.day ?? 0) + Self.keptDays - 1 }

  /// The end of that day.
  var until: Date { Date(timeIntervalSince1970: TimeInterval(lastDay + 1) * 86_400) }

  /// The cookie that keeps it, until its `keptDays` are over.
  func cookie(secure: Bool, today: Int) -> Cookie {
    Cookie(
      name: Cookie.name(Self.cookieName, secure: secure), value: kept.value,
      maxAge: max(0, lastDay + 1 - today) * 86_400, secure: secure)
  }

  /// Drops the cookie.
  static func deletion(secure: Bool) -> Cookie {
    .deletion(name: cookieName, secure: secure)
  }
}
