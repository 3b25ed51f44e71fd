import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

@Suite struct OriginCheckTests {
  private func verdict(
    site: String? = nil, origin: String? = nil, host: String? = "checklists.example",
    https: Bool = false, serverPort: Int? = nil, publicOrigin: String? = nil
  ) -> ForgeryVerdict {
    OriginCheck.verdict(
      secFetchSite: site, origin: origin, host: host, isHTTPS: https, serverPort: serverPort,
      publicOrigin: publicOrigin.map { PublicOrigin($0)! })
  }

  @Test func withoutEitherHeaderTheTokenDecides() {
    #expect(verdict() == .allowed)
    #expect(verdict(host: nil) == .allowed)
  }

  @Test func crossSiteFetchesAreRefused() {
    #expect(verdict(site: "cross-site") == .refused(.crossSiteFetch))
    #expect(verdict(site: " Cross-Site ") == .refused(.crossSiteFetch))
    #expect(
      verdict(site: "cross-site", origin: "http://checklists.example") == .refused(.crossSiteFetch))
    for site in ["same-origin", "same-site", "none"] { #expect(verdict(site: site) == .allowed) }
  }

  @Test func aMatchingOriginIsAllowed() {
    #expect(verdict(origin: "http://checklists.example") == .allowed)
    #expect(verdict(origin: "https://checklists.example", https: true) == .allowed)
    #expect(verdict(origin: "HTTP://Checklists.Example") == .allowed)
    #expect(verdict(origin: "http://localhost:8080", host: "localhost:8080") == .allowed)
    #expect(verdict(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080") == .allowed)
    #expect(verdict(origin: "http://[::1]:8080", host: "[::1]:8080") == .allowed)
    #expect(verdict(origin: "http://[::1]", host: "[::1]") == .allowed)
    // A default port written out is the same as none.
    #expect(
      verdict(origin: "https://checklists.example", host: "checklists.example:443", https: true)
        == .allowed)
    #expect(verdict(origin: "http://checklists.example:80") == .allowed)
    // TLS ended by a proxy in front of nginx: the request arrives as plain HTTP.
    #expect(verdict(origin: "https://checklists.example", https: false) == .allowed)
  }

  @Test func aForeignOriginIsRefused() {
    let foreign = [
      "https://evil.example", "http://checklists.example.evil.example", "http://evil.example:80",
      "http://checklists.example:8080", "http://sub.checklists.example", "http://checklists.exampl",
    ]
    for origin in foreign {
      #expect(verdict(origin: origin) == .refused(.originMismatch), "\(origin)")
    }
    #expect(
      verdict(origin: "http://localhost:8081", host: "localhost:8080") == .refused(.originMismatch))
    #expect(
      verdict(origin: "http://localhost", host: "localhost:8080") == .refused(.originMismatch))
    #expect(verdict(origin: "http://[::1]:8081", host: "[::1]:8080") == .refused(.originMismatch))
    // A page over plain HTTP posting to the HTTPS site.
    #expect(verdict(origin: "http://checklists.example", https: true) == .refused(.originMismatch))
    // A Host header that is itself nonsense matches nothing.
    #expect(
      verdict(origin: "http://checklists.example", host: "checklists.example:x")
        == .refused(.originMismatch))
  }

  /// A page sent with `Referrer-Policy: no-referrer` (Settings) posts its
  /// forms with `Origin: null`; only the browser's `same-origin` lets that by.
  @Test func aNullOriginIsAllowedOnlyWhenTheBrowserSaysSameOrigin() {
    #expect(verdict(site: "same-origin", origin: "null") == .allowed)
    #expect(verdict(site: " Same-Origin ", origin: "null") == .allowed)
    for site in ["same-site", "none", "cross-site", "", "same-origin, cross-site"] {
      #expect(verdict(site: site, origin: "null") != .allowed, "\(site)")
    }
    #expect(
      verdict(site: "same-origin", origin: "null", publicOrigin: "https://a.example") == .allowed)
  }

  @Test func nullAndMalformedOriginsAreRefused() {
    #expect(verdict(origin: "null") == .refused(.nullOrigin))
    let malformed = [
      "", "checklists.example", "ftp://checklists.example", "http://", "http:/checklists.example",
      "http://checklists.example/", "http://checklists.example/path",
      "http://user@checklists.example",
      "http://checklists.example?x", "http://checklists.example#x", "http://checklists.example:",
      "http://checklists.example:99999", "http://checklists.example:0",
      "http://checklists.example:+80",
      "http://[::1", "http://[::1]x", "http://a:b:80", "javascript://checklists.example",
      "http://checklists.example\\@evil.example",
    ]
    for origin in malformed {
      #expect(verdict(origin: origin) == .refused(.malformedOrigin), "\(origin)")
    }
  }

  @Test func anOriginWithoutHostCannotBeChecked() {
    #expect(verdict(origin: "http://checklists.example", host: nil) == .refused(.missingHost))
    #expect(verdict(origin: "http://checklists.example", host: "") == .refused(.missingHost))
  }

  /// Debian's stock `fastcgi_params` passes `HTTP_HOST $host`: the port the
  /// browser wrote is gone, and `SERVER_PORT` says where nginx listened.
  @Test func aHostWithoutPortIsCompletedWithTheListeningPort() {
    #expect(
      verdict(origin: "http://127.0.0.1:8080", host: "127.0.0.1", serverPort: 8080) == .allowed)
    #expect(
      verdict(
        origin: "http://Checklists.Example:8080", host: "checklists.example", serverPort: 8080)
        == .allowed)
    #expect(verdict(origin: "http://[::1]:8080", host: "[::1]", serverPort: 8080) == .allowed)
    #expect(
      verdict(origin: "https://checklists.example:8443", https: true, serverPort: 8443) == .allowed)
    // The default port, written or not, on the default listening port.
    #expect(verdict(origin: "http://checklists.example", serverPort: 80) == .allowed)
    #expect(verdict(origin: "http://checklists.example:80", serverPort: 80) == .allowed)
    #expect(verdict(origin: "https://checklists.example", https: true, serverPort: 443) == .allowed)
  }

  @Test func theListeningPortAdmitsNoOtherPortHostOrScheme() {
    // Another port of the same host is another origin.
    #expect(
      verdict(origin: "http://127.0.0.1:9090", host: "127.0.0.1", serverPort: 8080)
        == .refused(.originMismatch))
    #expect(
      verdict(origin: "http://checklists.example:8081", serverPort: 8080)
        == .refused(.originMismatch))
    // Another host on the listening port.
    #expect(
      verdict(origin: "http://evil.example:8080", serverPort: 8080) == .refused(.originMismatch))
    #expect(
      verdict(origin: "http://localhost:8080", host: "127.0.0.1", serverPort: 8080)
        == .refused(.originMismatch))
    // An https page on the port of a plain-HTTP listener did not come from it,
    // and an http page never posts to an HTTPS request.
    #expect(
      verdict(origin: "https://checklists.example:8080", serverPort: 8080)
        == .refused(.originMismatch))
    #expect(
      verdict(origin: "http://checklists.example:8443", https: true, serverPort: 8443)
        == .refused(.originMismatch))
    // A Host that names a port is the browser's word; SERVER_PORT does not
    // override it, whether the port is the default one or not.
    #expect(
      verdict(origin: "http://localhost:8080", host: "localhost:9090", serverPort: 8080)
        == .refused(.originMismatch))
    #expect(
      verdict(origin: "http://localhost:8080", host: "localhost:80", serverPort: 8080)
        == .refused(.originMismatch))
    // Without SERVER_PORT a Host without port means the scheme's default.
    #expect(
      verdict(origin: "http://checklists.example:8080", host: "checklists.example")
        == .refused(.originMismatch))
  }

  @Test func aConfiguredPublicOriginIsTheOnlyOneAccepted() {
    let configured = "https://lists.example.org"
    #expect(
      verdict(origin: "https://lists.example.org", host: "127.0.0.1", publicOrigin: configured)
        == .allowed)
    #expect(
      verdict(origin: "HTTPS://Lists.Example.Org:443", host: nil, publicOrigin: configured)
        == .allowed)
    // The Host header and the listening port no longer decide: a request
    // whose Host matches its Origin is still refused when that is not the
    // configured origin.
    #expect(
      verdict(
        origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080", serverPort: 8080,
        publicOrigin: configured) == .refused(.originMismatch))
    for foreign in [
      "http://lists.example.org", "https://lists.example.org:8443", "https://example.org",
      "https://evil.lists.example.org", "https://lists.example.org.evil.example",
    ] {
      #expect(
        verdict(origin: foreign, host: "lists.example.org", https: true, publicOrigin: configured)
          == .refused(.originMismatch), "\(foreign)")
    }
    // A non-default port in the configured origin must be the Origin's.
    #expect(
      verdict(
        origin: "http://lists.example.org:8080", publicOrigin: "http://lists.example.org:8080")
        == .allowed)
    #expect(
      verdict(origin: "http://lists.example.org", publicOrigin: "http://lists.example.org:8080")
        == .refused(.originMismatch))
    // The browser's other signals still refuse first; no Origin leaves it to the token.
    #expect(
      verdict(site: "cross-site", origin: configured, publicOrigin: configured)
        == .refused(.crossSiteFetch))
    #expect(verdict(origin: "null", publicOrigin: configured) == .refused(.nullOrigin))
    #expect(verdict(origin: "https://", publicOrigin: configured) == .refused(.malformedOrigin))
    #expect(verdict(origin: nil, publicOrigin: configured) == .allowed)
  }

  @Test func aPublicOriginParsesAsAnOriginDoes() {
    #expect(PublicOrigin("https://lists.example.org")?.description == "https://lists.example.org")
    #expect(
      PublicOrigin("HTTPS://Lists.Example.org:443")?.description == "https://lists.example.org")
    #expect(PublicOrigin("http://[::1]:8080")?.description == "http://[::1]:8080")
    for wrong in [
      "", "lists.example.org", "https://lists.example.org/", "https://lists.example.org/app",
      "ftp://lists.example.org", "https://user@lists.example.org", "https://lists.example.org:0",
    ] {
      #expect(PublicOrigin(wrong) == nil, "\(wrong)")
    }
  }

  @Test func readsTheRequestsHeaders() {
    let request = Request(
      method: .post, path: "/lists", authority: "checklists.example",
      headerFields: [.origin: "https://checklists.example"], isHTTPS: true)
    #expect(OriginCheck.verdict(for: request) == .allowed)
    let cross = Request(method: .post, path: "/lists", headerFields: [.secFetchSite: "cross-site"])
    #expect(OriginCheck.verdict(for: cross) == .refused(.crossSiteFetch))
  }

  /// The parameters nginx sends with Debian's stock `fastcgi_params` on
  /// port 8080, decoded as the server decodes them.
  @Test func readsTheListeningPortFromTheParameters() {
    func post(origin: String) -> Request {
      Request(parameters: [
        "REQUEST_METHOD": "POST", "REQUEST_URI": "/lists", "HTTP_HOST": "127.0.0.1",
        "SERVER_PORT": "8080", "REQUEST_SCHEME": "http", "HTTP_ORIGIN": origin,
      ])
    }
    #expect(OriginCheck.verdict(for: post(origin: "http://127.0.0.1:8080")) == .allowed)
    #expect(
      OriginCheck.verdict(for: post(origin: "http://127.0.0.1:9090")) == .refused(.originMismatch))
    #expect(
      OriginCheck.verdict(
        for: post(origin: "http://127.0.0.1:8080"),
        publicOrigin: PublicOrigin("https://lists.example.org")) == .refused(.originMismatch))
  }
}
