import FastCGI

/// The browser's own word on where a request came from: `Sec-Fetch-Site`
/// and `Origin`. A second line of defence beside the CSRF token.
///
/// A request without either header is allowed here (older browsers, tools);
/// the token still has to be right.
package enum OriginCheck {
  /// The verdict for a request's `Sec-Fetch-Site`, `Origin`, `Host`, scheme
  /// and listening port, or for its origin against the configured one.
  package static func verdict(for request: Request, publicOrigin: PublicOrigin? = nil)
    -> ForgeryVerdict
  {
    verdict(
      secFetchSite: request.headerFields.value(of: .secFetchSite),
      origin: request.headerFields.value(of: .origin),
      host: request.head.authority, isHTTPS: request.isHTTPS, serverPort: request.serverPort,
      publicOrigin: publicOrigin)
  }

  /// The verdict for a form posted from a page sent with
  /// `Referrer-Policy: no-referrer` (a shared list's): browsers post such
  /// a page's forms with `Origin: null` (Fetch: a navigation's origin is
  /// serialised as `null` under that policy), so `null` is taken when the
  /// browser also says `Sec-Fetch-Site: same-origin`, a header no page can
  /// set; any other `Origin` (the enhancement script's `fetch` sends the
  /// real one) is checked as usual. A `null` without that header is
  /// refused, as on every other page.
  package static func verdict(
    forPageWithoutReferrer request: Request, publicOrigin: PublicOrigin? = nil
  ) -> ForgeryVerdict {
    let fields = request.headerFields
    if let origin = fields.value(of: .origin), origin.trimmingOptionalWhitespace() == "null" {
      let site = fields.value(of: .secFetchSite)?.trimmingOptionalWhitespace().lowercased()
      return site == "same-origin" ? .allowed : .refused(.nullOrigin)
    }
    return verdict(for: request, publicOrigin: publicOrigin)
  }

  /// The verdict for the raw values.
  ///
  /// - Parameters:
  ///   - secFetchSite: `cross-site` is refused; `same-origin`, `same-site`
  ///     and `none` go on to the `Origin` check.
  ///   - origin: `null` is refused; otherwise its host and port must equal
  ///     the `Host` header's. Each side's default port (80 for `http`, 443
  ///     for `https`, the request's scheme for `Host`) counts as no port, so
  ///     a TLS proxy in front of nginx that forwards plain HTTP still
  ///     matches; an `http` origin posting to an HTTPS request does not.
  ///   - host: the request's `Host` header (swift-http-types' authority).
  ///   - isHTTPS: the scheme the request came in with.
  ///   - serverPort: the port nginx accepted the request on (`SERVER_PORT`).
  ///     Debian's stock `fastcgi_params` sets `HTTP_HOST` to `$host`, which
  ///     drops the port the browser wrote, so on port 8080 every same-origin
  ///     post would look foreign. When the `Host` names no port, an origin of
  ///     the request's own scheme, the `Host`'s host and this port is the
  ///     server's real listening address and is allowed too. When browsers
  ///     reach nginx directly this is as strong as comparing with the full
  ///     `Host`: a cross-origin page differs in scheme, host or port, and
  ///     nginx, not the client, says the port. The scheme's default port
  ///     still matches a `Host` without one, as before, since a proxy in
  ///     front of nginx forwards `Host: name` to whatever port nginx has;
  ///     such deployments pin the one origin with `publicOrigin`.
  ///   - publicOrigin: when the operator configured the one origin browsers
  ///     see the site at (`serve --public-origin`), it is the only `Origin`
  ///     accepted and `Host` plays no part: behind a further proxy neither
  ///     `Host` nor `SERVER_PORT` need be what the browser saw.
  package static func verdict(
    secFetchSite: String?, origin: String?, host: String?, isHTTPS: Bool,
    serverPort: Int? = nil, publicOrigin: PublicOrigin? = nil
  ) -> ForgeryVerdict {
    if let secFetchSite, secFetchSite.trimmingOptionalWhitespace().lowercased() == "cross-site" {
      return .refused(.crossSiteFetch)
    }
    guard let origin else { return .allowed }
    let trimmed = String(origin.trimmingOptionalWhitespace())
    if trimmed == "null" { return .refused(.nullOrigin) }
    guard let (scheme, authority) = splitOrigin(trimmed),
      let originAuthority = Authority(authority, defaultPort: defaultPort(of: scheme))
    else { return .refused(.malformedOrigin) }
    if let publicOrigin {
      return publicOrigin.scheme == scheme && publicOrigin.authority == originAuthority
        ? .allowed : .refused(.originMismatch)
    }
    if isHTTPS && scheme == "http" { return .refused(.originMismatch) }
    guard let host, !host.isEmpty else { return .refused(.missingHost) }
    guard
      let hostAuthority = Authority(
        host.trimmingOptionalWhitespace(), defaultPort: isHTTPS ? 443 : 80)
    else { return .refused(.originMismatch) }
    if hostAuthority == originAuthority { return .allowed }
    if !hostAuthority.isPortWritten, let serverPort, scheme == (isHTTPS ? "https" : "http"),
      hostAuthority.host == originAuthority.host,
      (originAuthority.port ?? defaultPort(of: scheme)) == serverPort
    {
      return .allowed
    }
    return .refused(.originMismatch)
  }

  static func defaultPort(of scheme: String) -> Int {
    scheme == "https" ? 443 : 80
  }

  /// `scheme://authority` with the scheme `http` or `https` (any case) and
  /// nothing after the authority (an origin has no path, query or user).
  static func splitOrigin(_ origin: String) -> (scheme: String, authority: Substring)? {
    guard let separator = origin.range(of: "://") else { return nil }
    let scheme = origin[..<separator.lowerBound].lowercased()
    let authority = origin[separator.upperBound...]
    guard scheme == "http" || scheme == "https", !authority.isEmpty,
      !authority.contains(where: { "/?#@ \t\\".contains($0) })
    else { return nil }
    return (scheme, authority)
  }

  /// A host and port, compared without letter case, with the scheme's
  /// default port dropped, so `example.com` and `example.com:443` under
  /// HTTPS are equal.
  struct Authority: Hashable, Sendable {
    var host: String
    /// Nil for the default port of the scheme it was parsed under.
    var port: Int?
    /// Whether the text named a port at all, default or not: only a `Host`
    /// without one may be completed with `SERVER_PORT`. Not compared.
    var isPortWritten: Bool

    /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`; nil for anything else.
    init?(_ text: some StringProtocol, defaultPort: Int) {
      let host: Substring
      let portText: Substring?
      let text = Substring(text)
      if text.hasPrefix("[") {
        guard let close = text.firstIndex(of: "]") else { return nil }
        host = text[...close]
        let rest = text[text.index(after: close)...]
        if rest.isEmpty {
          portText = nil
        } else {
          guard rest.hasPrefix(":") else { return nil }
          portText = rest.dropFirst()
        }
      } else if let colon = text.lastIndex(of: ":") {
        host = text[..<colon]
        portText = text[text.index(after: colon)...]
      } else {
        host = text
        portText = nil
      }
      guard !host.isEmpty, !host.contains(":") || host.hasPrefix("[") else { return nil }
      if let portText {
        guard (1...5).contains(portText.utf8.count),
          portText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
          let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        self.port = port == defaultPort ? nil : port
      } else {
        self.port = nil
      }
      self.isPortWritten = portText != nil
      self.host = host.lowercased()
    }

    static func == (left: Authority, right: Authority) -> Bool {
      left.host == right.host && left.port == right.port
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(host)
      hasher.combine(port)
    }
  }
}
