import FastCGI
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Who a browser is over HTTPS: only its `__Host-visitor` cookie says, and
/// a site whose TLS ends at a proxy (`--public-origin https://…`) is HTTPS.
@Suite struct HTTPSVisitorTests {
  /// A plain `visitor` cookie planted from a sibling host or over plain
  /// HTTP names somebody else's lists (the planter's): under HTTPS the
  /// browser is a new visitor, never that one, and the plain cookie is
  /// dropped.
  @Test func aPlainVisitorCookieIsNeverAdoptedOverHTTPS() throws {
    let planter = try ApplicationHarness()
    planter.post("/lists/1/items", [("text", "planted")])
    let planted = try #require(planter.cookies["visitor"])

    let victim = planter.anotherCookieJar(["visitor": planted])
    let page = victim.send(Request(method: .get, path: "/lists/1", isHTTPS: true))
    #expect(!victim.text(page).contains("planted"))
    let sent = page.setCookies
    let prefixed = try #require(sent.first { $0.hasPrefix("__Host-visitor=") })
    #expect(!prefixed.hasPrefix("__Host-visitor=\(planted.prefix(32))"), "a new id")
    #expect(sent.contains { $0.hasPrefix("visitor=; Max-Age=0;") })

    // The victim's next change goes to their own new directory, which the
    // planter's cookie does not reach.
    let secret = "the victim's own"
    victim.cookies["visitor"] = nil
    let token = victim.csrfOverHTTPS()
    let added = victim.send(
      Request(
        method: .post, path: "/lists/1/items",
        headerFields: [.contentType: "application/x-www-form-urlencoded"], isHTTPS: true,
        body: Array("text=\(secret.replacingOccurrences(of: " ", with: "+"))&csrf=\(token)".utf8)))
    #expect(added.status == .seeOther)
    #expect(!planter.text(planter.get("/lists/1")).contains(secret))
  }

  /// With the prefixed cookie, the same browser is recognised over HTTPS.
  @Test func thePrefixedCookieIsTheVisitorOverHTTPS() throws {
    let browser = try ApplicationHarness()
    let first = browser.send(Request(method: .get, path: "/lists", isHTTPS: true))
    let value = try #require(browser.cookies["__Host-visitor"])
    #expect(first.setCookies.contains { $0.hasPrefix("__Host-visitor=\(value);") })
    let again = browser.send(Request(method: .get, path: "/lists", isHTTPS: true))
    #expect(!again.setCookies.contains { $0.hasPrefix("__Host-visitor=") }, "not sent again")
  }

  /// A brand-new browser that went back to All Lists lands there over
  /// HTTPS as over HTTP: its `__Host-ChecklistIndex` is the one it carries.
  @Test func aFirstRunVisitorWhoLeftTheListLandsOnAllListsOverHTTPS() throws {
    let browser = try ApplicationHarness()
    let https = { (path: String) in
      browser.send(Request(method: .get, path: path, isHTTPS: true))
    }
    #expect(https("/").headerFields[.location] == "/lists/1")
    #expect(https("/lists/1").status == .ok)
    #expect(https("/lists").status == .ok)
    #expect(browser.cookies["__Host-ChecklistIndex"] == "-1")
    #expect(https("/").status == .ok, "All Lists, not a redirect to the list")
  }

  /// Behind a proxy that ends TLS, nginx passes no `HTTPS=on`; the public
  /// origin says the browser is on HTTPS, so the cookies are `__Host-` and
  /// `Secure`, and the prefixed cookie names the browser on its next visit.
  @Test func anHTTPSPublicOriginMakesTheCookiesSecure() throws {
    let browser = try ApplicationHarness(
      publicOrigin: PublicOrigin("https://lists.example.org"))
    let first = browser.get("/lists/1")
    let sent = first.setCookies
    #expect(sent.contains { $0.hasPrefix("__Host-visitor=") && $0.hasSuffix("; Secure") })
    #expect(sent.contains { $0.hasPrefix("__Host-ChecklistIndex=0;") && $0.hasSuffix("; Secure") })
    #expect(!sent.contains { $0.hasPrefix("visitor=") || $0.hasPrefix("ChecklistIndex=") })
    let again = browser.get("/lists/1")
    #expect(again.status == .ok)
    #expect(!again.setCookies.contains { $0.hasPrefix("__Host-visitor=") }, "the same visitor")

    let plain = try ApplicationHarness(publicOrigin: PublicOrigin("http://lists.example.org"))
    #expect(plain.get("/lists/1").setCookies.contains { $0.hasPrefix("visitor=") })
  }
}

extension ApplicationHarness {
  /// The visitor's CSRF token, read from a form fetched over HTTPS.
  fileprivate func csrfOverHTTPS() -> String {
    let page = text(send(Request(method: .get, path: "/lists/new", isHTTPS: true)))
    guard let range = page.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression)
    else { return "" }
    return String(page[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
  }
}
