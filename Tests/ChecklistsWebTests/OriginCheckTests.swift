import FastCGI
import Testing

@testable import ChecklistsWeb

@Suite struct OriginCheckTests {
  private func verdict(
    site: String? = nil, origin: String? = nil, host: String? = "checklists.example",
    https: Bool = false
  ) -> ForgeryVerdict {
    OriginCheck.verdict(secFetchSite: site, origin: origin, host: host, isHTTPS: https)
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

  @Test func readsTheRequestsHeaders() {
    let request = Request(
      method: "POST", path: "/lists",
      headers: ["host": "checklists.example", "origin": "https://checklists.example"], isHTTPS: true
    )
    #expect(OriginCheck.verdict(for: request) == .allowed)
    let cross = Request(method: "POST", path: "/lists", headers: ["sec-fetch-site": "cross-site"])
    #expect(OriginCheck.verdict(for: cross) == .refused(.crossSiteFetch))
  }
}
