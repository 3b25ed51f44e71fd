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

  @Test func aListSaysItMayBeWrittenAndTheHomeThatItMayBeRead() throws {
    let setup = try Setup()
    let ask = """
      <d:propfind xmlns:d="DAV:"><d:prop><d:current-user-privilege-set/></d:prop></d:propfind>
      """
    let found = try DAVPropfindTests.found(setup.propfind("/dav/lists/", depth: "1", body: ask))
    func privileges(_ href: String) -> Set<String> {
      Set(
        found[href]?["current-user-privilege-set"]?.children.compactMap {
          $0.children.first.map { "\($0.namespace)\($0.name)" }
        } ?? [])
    }
    #expect(privileges("/dav/lists/") == ["DAV:read"])
    #expect(privileges("/dav/lists/1/").isSuperset(of: ["DAV:read", "DAV:write"]))
  }

  @Test func aToDoAskedWithGzipKeepsItsStrongTagForIfMatch() throws {
    let setup = try Setup()
    // Long enough to be worth compressing (`GzipStage.smallestBody`).
    setup.owner.post("/lists/1/items", [("text", String(repeating: "Long to-do ", count: 60))])
    let asked = setup.client.send(
      Request(
        method: .get, path: "/dav/lists/1/3.ics",
        headerFields: [.authorization: setup.authorization, .acceptEncoding: "gzip"]))
    #expect(asked.status == .ok)
    #expect(asked.headerFields[.contentEncoding] == nil)
    let tag = try #require(asked.headerFields[.eTag])
    #expect(tag.hasPrefix("\""))
    #expect(asked.body.count > GzipStage.smallestBody)
    let replaced = DAVWriteTests.send(
      setup, .put, "/dav/lists/1/3.ics", String(decoding: asked.body, as: UTF8.self),
      [.ifMatch: tag, .contentType: "text/calendar"])
    #expect(replaced.status == .noContent)
  }
}
