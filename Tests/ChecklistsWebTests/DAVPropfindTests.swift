import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Discovery and reading over CalDAV: the well-known address, the principal,
/// the calendar home with a collection per list, a collection with its
/// to-dos and their tags; `Depth: infinity` and hostile bodies refused.
@Suite struct DAVPropfindTests {
  /// An owner with an item, and a client without cookies holding an app
  /// password of theirs.
  struct Setup {
    let owner: ApplicationHarness
    let client: ApplicationHarness
    let authorization: String

    init() throws {
      owner = try ApplicationHarness()
      owner.post("/lists/1/items", [("text", "Milk & <honey>")])
      owner.post("/lists/1/items", [("text", "Eggs")])
      let account = try DAVAuthenticationTests().connect(owner)
      client = owner.anotherCookieJar()
      authorization = DAVAuthenticationTests.basic(account.userName, account.password)
    }

    func propfind(
      _ path: String, depth: String? = "0", body: String = "", signedIn: Bool = true
    ) -> Response {
      var fields = HTTPFields()
      if signedIn { fields[.authorization] = authorization }
      if let depth { fields[.depth] = depth }
      return client.send(
        Request(
          method: RouteMethod.propfindMethod, path: path, headerFields: fields,
          body: Array(body.utf8)))
    }
  }

  /// The found properties of each response of a multistatus, by href.
  static func found(_ response: Response) throws -> [String: [String: DAVElement]] {
    #expect(response.status.code == 207)
    #expect(response.headerFields[.contentType] == "application/xml; charset=utf-8")
    let root = try DAVXMLReader.read(response.body)
    var result: [String: [String: DAVElement]] = [:]
    for entry in root.children where entry.isNamed("DAV:", "response") {
      let href = try #require(entry.child("DAV:", "href")?.text)
      var properties: [String: DAVElement] = [:]
      for propstat in entry.children where propstat.isNamed("DAV:", "propstat") {
        guard propstat.child("DAV:", "status")?.text == "HTTP/1.1 200 OK" else { continue }
        for property in propstat.child("DAV:", "prop")?.children ?? [] {
          properties[property.name] = property
        }
      }
      result[href] = properties
    }
    return result
  }

  static let ask = """
    <?xml version="1.0" encoding="utf-8"?>
    <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
      <d:prop><d:resourcetype/><d:displayname/><d:current-user-principal/><c:calendar-home-set/>
      <c:supported-calendar-component-set/><cs:getctag/><d:getetag/><x:unknown xmlns:x="urn:x"/></d:prop>
    </d:propfind>
    """

  @Test func aClientFindsThePrincipalTheHomeAndAListPerCollection() throws {
    let setup = try Setup()
    let wellKnown = setup.client.get("/.well-known/caldav")
    #expect(wellKnown.status == .movedPermanently)
    #expect(wellKnown.headerFields[.location] == "/dav/")

    let root = try Self.found(setup.propfind("/dav/", body: Self.ask))
    #expect(
      root["/dav/"]?["current-user-principal"]?.child("DAV:", "href")?.text == "/dav/principal/")

    let principal = try Self.found(setup.propfind("/dav/principal/", body: Self.ask))
    #expect(
      principal["/dav/principal/"]?["calendar-home-set"]?.child("DAV:", "href")?.text
        == "/dav/lists/")

    let home = try Self.found(setup.propfind("/dav/lists/", depth: "1", body: Self.ask))
    #expect(Set(home.keys) == ["/dav/lists/", "/dav/lists/1/"])
    let list = try #require(home["/dav/lists/1/"])
    #expect(list["displayname"]?.text == "List")
    #expect(list["resourcetype"]?.child("urn:ietf:params:xml:ns:caldav", "calendar") != nil)
    #expect(list["supported-calendar-component-set"]?.children.first?.name == "comp")
    #expect(list["getctag"]?.text.isEmpty == false)
    #expect(list["unknown"] == nil)
  }

  @Test func aCollectionListsItsToDosWithStrongTagsThatFollowTheirItem() throws {
    let setup = try Setup()
    func tags() throws -> [String: String] {
      let found = try Self.found(setup.propfind("/dav/lists/1/", depth: "1", body: Self.ask))
      return found.compactMapValues { $0["getetag"]?.text ?? $0["getctag"]?.text }
    }
    let before = try tags()
    #expect(Set(before.keys) == ["/dav/lists/1/", "/dav/lists/1/1.ics", "/dav/lists/1/2.ics"])
    #expect(before.values.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.count == 34 })
    #expect(try tags() == before)  // the same bytes, the same tags

    #expect(setup.owner.post("/lists/1/items/2/toggle").status == .seeOther)
    let after = try tags()
    #expect(after["/dav/lists/1/1.ics"] == before["/dav/lists/1/1.ics"])
    #expect(after["/dav/lists/1/2.ics"] != before["/dav/lists/1/2.ics"])
    #expect(after["/dav/lists/1/"] != before["/dav/lists/1/"])
  }

  @Test func allpropAndPropname() throws {
    let setup = try Setup()
    let all = try Self.found(setup.propfind("/dav/lists/1/", body: ""))
    #expect(all["/dav/lists/1/"]?["displayname"]?.text == "List")
    let names = try Self.found(
      setup.propfind("/dav/lists/1/", body: #"<propfind xmlns="DAV:"><propname/></propfind>"#))
    #expect(names["/dav/lists/1/"]?["displayname"]?.text == "")
    #expect(names["/dav/lists/1/"]?["getctag"] != nil)
  }

  @Test func refusesInfiniteDepthHostileBodiesStrangersAndUnknownLists() throws {
    let setup = try Setup()
    let before = setup.owner.storedFiles()
    for depth in ["infinity", nil] {
      let refused = setup.propfind("/dav/lists/", depth: depth, body: Self.ask)
      #expect(refused.status == .forbidden)
      #expect(setup.client.text(refused).contains("<d:propfind-finite-depth/>"))
    }
    #expect(setup.propfind("/dav/lists/", depth: "2").status == .badRequest)
    let laughs = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
      <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>
      """
    let hostile = setup.propfind("/dav/lists/", body: laughs)
    #expect(hostile.status == .badRequest)
    #expect(setup.client.text(hostile).contains("document type declaration"))
    #expect(setup.propfind("/dav/lists/", body: "<d:propfind").status == .badRequest)
    #expect(setup.propfind("/dav/lists/", body: #"<x xmlns="DAV:"/>"#).status == .badRequest)
    #expect(setup.propfind("/dav/lists/99/").status == .notFound)
    let stranger = setup.propfind("/dav/lists/", signedIn: false)
    #expect(stranger.status == .unauthorized)
    #expect(setup.owner.storedFiles() == before)
  }
}
