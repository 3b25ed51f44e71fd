import FastCGI
import HTTPTypes

extension Response {
  /// Sets `cookie` with a `Set-Cookie` field. A cookie of the same name this
  /// response already sets is dropped first: the browser would keep only the
  /// last one, and the response says each cookie once.
  package mutating func setCookie(_ cookie: Cookie) {
    if let earlier = headerFields.indices.first(where: { sets(cookie.name, headerFields[$0]) }) {
      headerFields.remove(at: earlier)
    }
    headerFields.append(HTTPField(name: .setCookie, value: cookie.headerValue))
  }

  /// Whether the response sets the cookie called `name` (a handler's own
  /// choice, which the visitor's renewal must not undo).
  package func setsCookie(named name: String) -> Bool {
    headerFields.contains { sets(name, $0) }
  }

  /// Whether `field` sets the cookie called `name`.
  private func sets(_ name: String, _ field: HTTPField) -> Bool {
    guard field.name.isSameField(as: .setCookie) else { return false }
    let value = field.value.utf8
    return value.starts(with: name.utf8)
      && value.dropFirst(name.utf8.count).first == UInt8(ascii: "=")
  }

  /// The response's `Set-Cookie` fields, in order.
  package var setCookieFields: [HTTPField] {
    headerFields.filter { $0.name.isSameField(as: .setCookie) }
  }

  /// The values of the response's `Set-Cookie` fields, in order.
  package var setCookies: [String] { setCookieFields.map(\.value) }
}
