/// A cookie the product sets: one `Set-Cookie` field of a response.
package struct Cookie: Sendable, Equatable {
  /// 400 days, the longest lifetime browsers honour (RFC 6265bis caps it).
  package static let longMaxAge = 400 * 24 * 60 * 60

  package var name: String
  package var value: String
  /// Seconds to keep the cookie; 0 deletes it; nil makes a session cookie.
  package var maxAge: Int?
  package var secure: Bool
  package var httpOnly: Bool
  package var sameSite: String
  package var path: String

  package init(
    name: String, value: String, maxAge: Int?, secure: Bool, httpOnly: Bool = true,
    sameSite: String = "Lax", path: String = "/"
  ) {
    self.name = name
    self.value = value
    self.maxAge = maxAge
    self.secure = secure
    self.httpOnly = httpOnly
    self.sameSite = sameSite
    self.path = path
  }

  /// The `Set-Cookie` value, e.g.
  /// `ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure`.
  ///
  /// Written into one buffer of the right size: appended piece by piece to
  /// a `String`, each cookie grew its storage several times (a renewal
  /// sets three, ~8,900 instructions; `bench-web --profile N renewal`).
  package var headerValue: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count + value.utf8.count + path.utf8.count + 64)
    bytes += name.utf8
    bytes.append(UInt8(ascii: "="))
    bytes += value.utf8
    if let maxAge {
      bytes += "; Max-Age=".utf8
      bytes += String(maxAge).utf8
    }
    bytes += "; Path=".utf8
    bytes += path.utf8
    if httpOnly { bytes += "; HttpOnly".utf8 }
    if !sameSite.isEmpty {
      bytes += "; SameSite=".utf8
      bytes += sameSite.utf8
    }
    if secure { bytes += "; Secure".utf8 }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The prefix of a cookie set over HTTPS. A browser accepts a `__Host-`
  /// cookie only from a secure origin, with `Secure`, `Path=/` and no
  /// `Domain`, so neither a plain-HTTP page of the same host nor a
  /// sibling subdomain can plant or overwrite it (RFC 6265bis §4.1.3.2).
  package static let hostPrefix = "__Host-"

  /// The name a cookie called `name` goes by: with `__Host-` under HTTPS.
  package static func name(_ name: String, secure: Bool) -> String {
    secure ? hostPrefix + name : name
  }

  /// A cookie kept for 400 days, HttpOnly, SameSite=Lax, Path=/, and named
  /// `__Host-<name>` when `secure`.
  ///
  /// - Parameter secure: true when the request came over HTTPS.
  package static func longLived(name: String, value: String, secure: Bool) -> Cookie {
    Cookie(name: Self.name(name, secure: secure), value: value, maxAge: longMaxAge, secure: secure)
  }

  /// Drops the plain cookie called `name` that an HTTPS browser kept from
  /// before cookies were `__Host-` there (sent over HTTPS only).
  package static func plainDeletion(name: String) -> Cookie {
    Cookie(name: name, value: "", maxAge: 0, secure: true)
  }

  /// Tells the browser to drop the cookie `longLived` set (`Max-Age=0`,
  /// same name and attributes).
  package static func deletion(name: String, secure: Bool) -> Cookie {
    Cookie(name: Self.name(name, secure: secure), value: "", maxAge: 0, secure: secure)
  }
}
