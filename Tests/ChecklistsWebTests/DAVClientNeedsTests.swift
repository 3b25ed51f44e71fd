import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

/// What real clients' requests showed the server lacked (the transcripts of
/// Tests/EndToEnd/fixtures/caldav): `OPTIONS` at every address, a list's
/// privileges, and a to-do's strong tag when the client asks for gzip.
@Suite struct DAVClientNeedsTests {
  typealias Setup = DAVPropfindTests.Setup

  @Test func everyAddressAnswersOptionsWithoutSigningInAndWithItsOwnMethods() throws {
    let setup = try Setup()
    let addresses = [
      "/dav/", "/dav/principal/", "/dav/lists/", "/dav/lists/1/", "/dav/lists/1/1.ics",
    ]
    for path in addresses {
      let options = setup.client.get(path, method: .options)
      #expect(options.status == .ok, "\(path)")
      #expect(options.headerFields[.dav] == "1, calendar-access", "\(path)")
      // The methods it names are the ones the route table takes there.
      let refused = setup.client.get(path, method: .post)
      #expect(refused.status == .methodNotAllowed, "\(path)")
      let named = Set(try #require(options.headerFields[.allow]).split(separator: ", "))
      let taken = Set(try #require(refused.headerFields[.allow]).split(separator: ", "))
      #expect(named == taken, "\(path)")
    }
  }
}
