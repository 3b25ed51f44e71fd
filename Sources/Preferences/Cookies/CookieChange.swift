/// What a request did to a cookie-backed key, for the web layer to send as
/// a `Set-Cookie`: the value lives in the visitor's browser, so every
/// change must reach it.
package enum CookieChange: Sendable, Equatable {
  /// The key was set to a new value: the cookie carries `value`.
  case set(key: String, value: String)
  /// The value the request carried, sent again unchanged: browsers count a
  /// cookie's life from when it was last set, not last sent.
  case renew(key: String, value: String)
  /// The key was removed: its cookie is to be deleted.
  case remove(key: String)

  /// The cookie-backed key.
  package var key: String {
    switch self {
    case .set(let key, _), .renew(let key, _), .remove(let key): key
    }
  }

  /// The cookie's new value; nil for a removal.
  package var value: String? {
    switch self {
    case .set(_, let value), .renew(_, let value): value
    case .remove: nil
    }
  }
}
