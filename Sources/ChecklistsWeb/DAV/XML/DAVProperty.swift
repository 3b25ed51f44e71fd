/// The name of a WebDAV property: a namespace and a local name.
struct DAVProperty: Sendable, Hashable {
  let namespace: String
  let name: String

  static let dav = "DAV:"
  static let calDAV = "urn:ietf:params:xml:ns:caldav"
  static let calendarServer = "http://calendarserver.org/ns/"

  static let resourceType = DAVProperty(namespace: dav, name: "resourcetype")
  static let displayName = DAVProperty(namespace: dav, name: "displayname")
  static let currentUserPrincipal = DAVProperty(namespace: dav, name: "current-user-principal")
  static let principalURL = DAVProperty(namespace: dav, name: "principal-URL")
  static let getETag = DAVProperty(namespace: dav, name: "getetag")
  static let getContentType = DAVProperty(namespace: dav, name: "getcontenttype")
  static let calendarHomeSet = DAVProperty(namespace: calDAV, name: "calendar-home-set")
  static let supportedComponents = DAVProperty(
    namespace: calDAV, name: "supported-calendar-component-set")
  static let calendarData = DAVProperty(namespace: calDAV, name: "calendar-data")
  static let getCTag = DAVProperty(namespace: calendarServer, name: "getctag")
  static let syncToken = DAVProperty(namespace: dav, name: "sync-token")
  static let supportedReports = DAVProperty(namespace: dav, name: "supported-report-set")
  static let currentUserPrivileges = DAVProperty(
    namespace: dav, name: "current-user-privilege-set")

  /// The prefix the multistatus declares for this namespace, if any.
  var prefix: String? {
    switch namespace {
    case Self.dav: "d"
    case Self.calDAV: "c"
    case Self.calendarServer: "cs"
    default: nil
    }
  }
}

/// Writes a `207 Multi-Status` body (RFC 4918 §13): one `response` per
/// resource, its found properties in one `propstat` (`200`) and the ones it
/// does not have in another (`404`).
struct MultistatusWriter {
  private(set) var bytes: [UInt8] = Array(
    """
    <?xml version="1.0" encoding="utf-8"?>
    <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
    xmlns:cs="http://calendarserver.org/ns/">
    """.utf8)

  /// A resource at `href` (already escaped for a URL): `found` are its
  /// properties with their values (XML written by `DAVValue`), `missing`
  /// the ones asked for that it does not have.
  mutating func response(
    href: String, found: [(DAVProperty, DAVValue)], missing: [DAVProperty]
  ) {
    append("<d:response><d:href>")
    appendEscaped(href)
    append("</d:href>")
    if !found.isEmpty {
      append("<d:propstat><d:prop>")
      for (property, value) in found { appendElement(property, value) }
      append("</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
    }
    if !missing.isEmpty {
      append("<d:propstat><d:prop>")
      for property in missing { appendElement(property, .empty) }
      append("</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>")
    }
    append("</d:response>")
  }

  /// A resource and the status of each property a `PROPPATCH` named
  /// (`status` as `HTTP/1.1 200 OK`), grouped by status.
  mutating func response(href: String, statuses: [(String, [DAVProperty])]) {
    append("<d:response><d:href>")
    appendEscaped(href)
    append("</d:href>")
    for (status, properties) in statuses where !properties.isEmpty {
      append("<d:propstat><d:prop>")
      for property in properties { appendElement(property, .empty) }
      append("</d:prop><d:status>\(status)</d:status></d:propstat>")
    }
    append("</d:response>")
  }

  /// A resource asked for by its `href` that is not there (`404`).
  mutating func missing(href: String) {
    append("<d:response><d:href>")
    appendEscaped(href)
    append("</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
  }

  /// A `sync-collection` answer's new token (after its responses).
  mutating func syncToken(_ token: String) {
    append("<d:sync-token>")
    appendEscaped(token)
    append("</d:sync-token>")
  }

  mutating func finish() -> [UInt8] {
    append("</d:multistatus>\n")
    return bytes
  }

  private mutating func appendElement(_ property: DAVProperty, _ value: DAVValue) {
    let name: String
    if let prefix = property.prefix {
      name = "\(prefix):\(property.name)"
      append("<\(name)")
    } else {
      name = "x:\(property.name)"
      append("<\(name) xmlns:x=\"")
      appendEscaped(property.namespace)
      append("\"")
    }
    switch value {
    case .empty:
      append("/>")
      return
    case .text(let text):
      append(">")
      appendEscaped(text)
    case .markup(let markup):
      append(">")
      append(markup)
    }
    append("</\(name)>")
  }

  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Text with XML's markup characters escaped.
  private mutating func appendEscaped(_ text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case UInt8(ascii: "\""): append("&quot;")
      case UInt8(ascii: "\r"): append("&#13;")
      default: bytes.append(byte)
      }
    }
  }
}

/// A property's value in a multistatus.
enum DAVValue: Sendable, Equatable {
  case empty
  /// Character data, escaped when written.
  case text(String)
  /// Elements written as they are (made from constants and escaped hrefs).
  case markup(String)

  /// `<d:href>…</d:href>` with `path` escaped.
  static func href(_ path: String) -> DAVValue {
    .markup("<d:href>\(escaped(path))</d:href>")
  }

  /// Text with XML's markup characters escaped.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\r": result += "&#13;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
