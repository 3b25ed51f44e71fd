import FastCGI

/// The browser's own word on where a request came from: `Sec-Fetch-Site`
/// and `Origin`. A second line of defence beside the CSRF token.
///
/// A request without either header is allowed here (older browsers, tools);
/// the token still has to be right.
public enum OriginCheck {
  /// The verdict for a request's `Sec-Fetch-Site`, `Origin` and `Host`.
  public static func verdict(for request: Request) -> ForgeryVerdict {
    verdict(
      secFetchSite: request.header("sec-fetch-site"), origin: request.header("origin"),
      host: request.header("host"), isHTTPS: request.isHTTPS)
  }

  /// The verdict for the raw header values.
  ///
  /// - Parameters:
  ///   - secFetchSite: `cross-site` is refused; `same-origin`, `same-site`
  ///     and `none` go on to the `Origin` check.
  ///   - origin: `null` is refused; otherwise its host and port must equal
  ///     the `Host` header's. Each side's default port (80 for `http`, 443
  ///     for `https`, the request's scheme for `Host`) counts as no port, so
  ///     a TLS proxy in front of nginx that forwards plain HTTP still
  ///     matches; an `http` origin posting to an HTTPS request does not.
  ///   - host: the request's `Host` header.
  ///   - isHTTPS: the scheme the request came in with.
  public static func verdict(secFetchSite: String?, origin: String?, host: String?, isHTTPS: Bool)
    -> ForgeryVerdict
  {
    if let secFetchSite, secFetchSite.trimmingOptionalWhitespace().lowercased() == "cross-site" {
      return .refused(.crossSiteFetch)
    }
    guard let origin else { return .allowed }
    let trimmed = String(origin.trimmingOptionalWhitespace())
    if trimmed == "null" { return .refused(.nullOrigin) }
    guard let (scheme, authority) = splitOrigin(trimmed),
      let originAuthority = Authority(authority, defaultPort: scheme == "https" ? 443 : 80)
    else { return .refused(.malformedOrigin) }
    if isHTTPS && scheme == "http" { return .refused(.originMismatch) }
    guard let host, !host.isEmpty else { return .refused(.missingHost) }
    guard
      let hostAuthority = Authority(
        host.trimmingOptionalWhitespace(), defaultPort: isHTTPS ? 443 : 80),
      hostAuthority == originAuthority
    else { return .refused(.originMismatch) }
    return .allowed
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
  struct Authority: Equatable {
    var host: String
    /// Nil for the default port of the scheme it was parsed under.
    var port: Int?

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
      self.host = host.lowercased()
    }
  }
}
