import FastCGI
import HTTPTypes

extension Response {
  /// Sets `cookie` with a `Set-Cookie` field. A cookie of the same name this
  /// response already sets is dropped first: the browser would keep only the
  /// last one, and the response says each cookie once.
  package mutating func setCookie(_ cookie: Cookie) {
    let prefix = cookie.name + "="
    headerFields.removeAll { $0.name == .setCookie && $0.value.hasPrefix(prefix) }
    headerFields.append(HTTPField(name: .setCookie, value: cookie.headerValue))
  }

  /// The values of the response's `Set-Cookie` fields, in order.
  package var setCookies: [String] { headerFields[values: .setCookie] }
}
