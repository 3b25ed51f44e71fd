import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

/// A browser over HTTPS: its cookies are the `__Host-` ones.
@Suite struct HTTPSVisitorTests {
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
}
