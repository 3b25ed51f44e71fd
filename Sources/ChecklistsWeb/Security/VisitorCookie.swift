import Foundation

/// The visitor cookie's value: the visitor's id and the day the browser was
/// last sent it, as `<32 hex digits>.<days since 1970>`.
///
/// Browsers keep a cookie for at most 400 days from the last time it was
/// *set*, however often it is sent back; a cookie set once would forget a
/// visitor who comes every day. Carrying the day it was set lets the
/// backend renew it at most once a day from the cookie alone (no file read),
/// and keeps the response memo's key, which includes the `Cookie` header,
/// stable for the rest of the day.
package struct VisitorCookie: Sendable, Equatable {
  /// The cookie's name (prefixed with `__Host-` under HTTPS, see `SetCookie`).
  package static let name = "visitor"

  /// Renewed when it was set at least this many days ago (or carries no
  /// day, as cookies from before renewal do).
  static let renewalDays = 1

  package let id: VisitorID
  /// Days since 1970-01-01 (UTC) when it was set; nil in the older form
  /// (the id alone).
  package let day: Int?

  package init(id: VisitorID, day: Int) {
    self.id = id
    self.day = day
  }

  /// Parses `<id>` or `<id>.<day>`; nil for anything else, which makes a
  /// new visitor.
  package init?(value: String) {
    let utf8 = value.utf8
    let idLength = VisitorID.byteCount * 2
    guard let id = VisitorID(cookieValue: String(value.prefix(idLength))) else { return nil }
    if utf8.count == idLength {
      self.id = id
      day = nil
      return
    }
    let rest = utf8.dropFirst(idLength)
    guard rest.first == UInt8(ascii: "."), (2...7).contains(rest.count),
      rest.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let day = Int(String(decoding: rest.dropFirst(), as: UTF8.self))
    else { return nil }
    self.id = id
    self.day = day
  }

  /// The cookie's text.
  package var value: String {
    guard let day else { return id.cookieValue }
    return "\(id.cookieValue).\(day)"
  }

  /// True when the browser should be sent the cookie again today: it was
  /// set `renewalDays` or more ago, carries no day, or a day in the future
  /// (a clock put right, or a hand-made cookie).
  func needsRenewal(today: Int) -> Bool {
    guard let day else { return true }
    return today - day >= Self.renewalDays || day > today
  }

  /// The first second (since 1970) at which `needsRenewal` turns true;
  /// `Int64.min` when it already is.
  func renewalDue(today: Int) -> Int64 {
    guard let day, !needsRenewal(today: today) else { return Int64.min }
    return Int64(day + Self.renewalDays) * 86_400
  }

  /// Today in days since 1970-01-01, UTC.
  static func today(now: Date = Date()) -> Int { Int(now.timeIntervalSince1970 / 86_400) }
}
