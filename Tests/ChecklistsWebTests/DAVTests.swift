import FastCGI
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The CalDAV group's skeleton: a client that asks `/dav/` what it offers
/// learns it is a CalDAV server, without a visitor cookie.
@Suite struct DAVTests {
  @Test func optionsSaysCalendarAccess() throws {
    let client = try ApplicationHarness()
    let response = client.get("/dav/", method: .options)
    #expect(response.status == .ok)
    #expect(response.headerFields[.dav] == "1, calendar-access")
    #expect(response.headerFields[.allow] == "OPTIONS, PROPFIND")
    #expect(response.body.isEmpty)
    #expect(response.setCookies.isEmpty)
    #expect(response.headerFields[.xContentTypeOptions] == "nosniff")
  }

  @Test func otherMethodsAreRefusedWithTheAllowOfTheAddress() throws {
    let client = try ApplicationHarness()
    for method in [HTTPRequest.Method.get, .post, HTTPRequest.Method("REPORT")!] {
      let response = client.get("/dav/", method: method)
      #expect(response.status == .methodNotAllowed, "\(method)")
      #expect(response.headerFields[.allow] == "OPTIONS, PROPFIND", "\(method)")
    }
    // Only the collection's own spelling is found.
    #expect(client.get("/dav", method: .options).status == .notFound)
    #expect(client.get("/dav//", method: .options).status == .notFound)
  }
}
