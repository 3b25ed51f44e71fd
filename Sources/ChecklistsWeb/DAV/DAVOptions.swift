import FastCGI
import HTTPTypes

/// `OPTIONS` on any CalDAV address: what a CalDAV client finds there (RFC
/// 4791 §5.1): the `DAV` compliance classes, `1` and `calendar-access`, and
/// the methods the address takes. A client asks this before anything else,
/// to tell a CalDAV server from a plain web site, and not only at `/dav/`:
/// Apple's clients ask the principal, Thunderbird the calendar it was given.
enum DAVOptions {
  static let compliance = "1, calendar-access"
  /// `/dav/`, the principal and the home: read only.
  static let allow = "OPTIONS, PROPFIND"
  /// A list's collection.
  static let collectionAllow = "OPTIONS, PROPFIND, REPORT, PROPPATCH, DELETE, MKCALENDAR"
  /// A to-do.
  static let todoAllow = "OPTIONS, GET, HEAD, PUT, DELETE"

  static func answer(_ context: DAVContext) -> Response {
    answer(allowing: allow)
  }

  static func collection(_ context: DAVContext) -> Response {
    answer(allowing: collectionAllow)
  }

  static func todo(_ context: DAVContext) -> Response {
    answer(allowing: todoAllow)
  }

  static func answer(allowing methods: String) -> Response {
    Response(
      status: .ok,
      headerFields: HTTPFields([
        HTTPField(name: .dav, value: compliance),
        HTTPField(name: .allow, value: methods),
      ]))
  }
}

extension HTTPField.Name {
  /// `DAV` (RFC 4918 §10.1): the WebDAV compliance classes an address offers.
  static let dav = HTTPField.Name("DAV")!
}
