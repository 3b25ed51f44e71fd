import FastCGI

/// The one origin browsers reach the site at, as the operator states it
/// (`checklists serve --public-origin https://lists.example.org`).
///
/// When set, it is the only `Origin` a post may carry: it holds however the
/// request reached the backend (a proxy before nginx, a `Host` rewritten by
/// `fastcgi_params`, a port mapped by a container), where `Host` and
/// `SERVER_PORT` describe the last hop rather than what the browser saw.
package struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`, lower case.
  let scheme: String
  /// Host and port, the scheme's default port as none.
  let authority: OriginCheck.Authority

  /// Parses `http(s)://host[:port]` exactly as a browser's `Origin` is
  /// parsed; nil for anything else (a path, a user, a trailing slash), so
  /// that a typo stops the start instead of refusing every post.
  package init?(_ text: String) {
    guard let (scheme, authority) = OriginCheck.splitOrigin(text),
      let parsed = OriginCheck.Authority(
        authority, defaultPort: OriginCheck.defaultPort(of: scheme))
    else { return nil }
    self.scheme = scheme
    self.authority = parsed
  }

  init(scheme: String, authority: OriginCheck.Authority) {
    self.scheme = scheme
    self.authority = authority
  }

  /// The origin a browser reached this request at, for an absolute address
  /// the site hands out (the calendar's): `configured` when the operator
  /// gave one (`serve --public-origin`), else the request's scheme and
  /// `Host`, completed with the port nginx accepted it on when the `Host`
  /// names none (as the origin check does; Debian's `fastcgi_params` drops
  /// the port the browser wrote). Nil without a readable `Host`.
  static func of(_ request: Request, configured: PublicOrigin?) -> PublicOrigin? {
    if let configured { return configured }
    let scheme = request.isHTTPS ? "https" : "http"
    let defaultPort = OriginCheck.defaultPort(of: scheme)
    guard let host = request.head.authority,
      var authority = OriginCheck.Authority(
        host.trimmingOptionalWhitespace(), defaultPort: defaultPort)
    else { return nil }
    if !authority.isPortWritten, let port = request.serverPort, port != defaultPort {
      authority.port = port
    }
    return PublicOrigin(scheme: scheme, authority: authority)
  }

  /// `request` as the browser sent it: over HTTPS when this origin is
  /// `https`, whatever nginx passed. Where TLS ends at a proxy before
  /// nginx, nginx sees plain HTTP and passes no `HTTPS=on`; without this
  /// the cookies would go out without `Secure` and `__Host-`.
  func asSentByBrowser(_ request: Request) -> Request {
    guard scheme == "https", !request.isHTTPS else { return request }
    var upgraded = request
    upgraded.isHTTPS = true
    return upgraded
  }

  /// `scheme://host[:port]`, the default port left out, as browsers send it.
  package var description: String {
    "\(scheme)://\(authority.host)" + (authority.port.map { ":\($0)" } ?? "")
  }
}
