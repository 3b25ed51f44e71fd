import FastCGI
import HTTPTypes

/// `OPTIONS /dav/`: what a CalDAV client finds here (RFC 4791 §5.1): the
/// `DAV` compliance classes, `1` and `calendar-access`, and the methods
/// the address takes. A client asks this before anything else, to tell a
/// CalDAV server from a plain web site.
enum DAVOptions {
  static let compliance = "1, calendar-access"
  static let allow = "OPTIONS, PROPFIND"

  static func answer(_ context: DAVContext) -> Response {
    Response(
      status: .ok,
      headerFields: HTTPFields([
        HTTPField(name: .dav, value: compliance),
        HTTPField(name: .allow, value: allow),
      ]))
  }
}

extension HTTPField.Name {
  /// `DAV` (RFC 4918 §10.1): the WebDAV compliance classes an address offers.
  static let dav = HTTPField.Name("DAV")!
}
