import FastCGI
import HTTPTypes

/// `/.well-known/caldav` (RFC 6764 §5): where a client that was given only
/// the site's address finds the CalDAV service, by a redirect to `/dav/`,
/// whose `current-user-principal` it then asks for. Answered without
/// signing in: it says nothing but where to go.
enum WellKnownCalDAV {
  static func redirect(_ context: DAVContext) -> Response {
    Response(
      status: .movedPermanently,
      headerFields: HTTPFields([HTTPField(name: .location, value: DAVAddress.root)]))
  }
}
