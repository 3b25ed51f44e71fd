import FastCGI
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

@Suite struct RouteTableTests {
  /// Every address of the product with the method that reaches it, the
  /// route it reaches and the ids it carries.
  static let addresses: [(method: String, path: String, route: String, ids: [PathParameter: Int])] =
    [
      ("GET", "/", "GET /", [:]),
      ("GET", "/lists", "GET /lists", [:]),
      ("GET", "/lists/new", "GET /lists/new", [:]),
      ("POST", "/lists", "POST /lists", [:]),
      ("GET", "/lists/7", "GET /lists/{list}", [.list: 7]),
      ("GET", "/lists/7/edit", "GET /lists/{list}/edit", [.list: 7]),
      ("POST", "/lists/7", "POST /lists/{list}", [.list: 7]),
      ("POST", "/lists/7/delete", "POST /lists/{list}/delete", [.list: 7]),
      ("POST", "/lists/7/duplicate", "POST /lists/{list}/duplicate", [.list: 7]),
      ("GET", "/search", "GET /search", [:]),
      (
        "POST", "/lists/7/save-as-template", "POST /lists/{list}/save-as-template",
        [.list: 7]
      ),
      ("POST", "/templates/9/new-list", "POST /templates/{template}/new-list", [.template: 9]),
      ("POST", "/templates/9/delete", "POST /templates/{template}/delete", [.template: 9]),
      ("POST", "/lists/7/share/read-only", "POST /lists/{list}/share/read-only", [.list: 7]),
      (
        "POST", "/lists/7/share/read-only/revoke", "POST /lists/{list}/share/read-only/revoke",
        [.list: 7]
      ),
      ("POST", "/lists/7/share/edit", "POST /lists/{list}/share/edit", [.list: 7]),
      (
        "POST", "/lists/7/share/edit/revoke", "POST /lists/{list}/share/edit/revoke", [.list: 7]
      ),
      ("POST", "/lists/7/items", "POST /lists/{list}/items", [.list: 7]),
      ("POST", "/lists/7/sort", "POST /lists/{list}/sort", [.list: 7]),
      ("POST", "/lists/7/check-all", "POST /lists/{list}/check-all", [.list: 7]),
      ("POST", "/lists/7/uncheck-all", "POST /lists/{list}/uncheck-all", [.list: 7]),
      ("GET", "/lists/7/reorder", "GET /lists/{list}/reorder", [.list: 7]),
      (
        "GET", "/lists/7/items/42/edit", "GET /lists/{list}/items/{item}/edit",
        [.list: 7, .item: 42]
      ),
      ("POST", "/lists/7/items/42", "POST /lists/{list}/items/{item}", [.list: 7, .item: 42]),
      (
        "POST", "/lists/7/items/42/toggle", "POST /lists/{list}/items/{item}/toggle",
        [.list: 7, .item: 42]
      ),
      (
        "POST", "/lists/7/items/42/delete", "POST /lists/{list}/items/{item}/delete",
        [.list: 7, .item: 42]
      ),
      (
        "POST", "/lists/7/items/42/move", "POST /lists/{list}/items/{item}/move",
        [.list: 7, .item: 42]
      ),
      ("POST", "/lists/7/remove-checked", "POST /lists/{list}/remove-checked", [.list: 7]),
      ("GET", "/deleted", "GET /deleted", [:]),
      ("POST", "/deleted/5/restore", "POST /deleted/{deletion}/restore", [.deletion: 5]),
      ("GET", "/settings", "GET /settings", [:]),
      ("POST", "/settings", "POST /settings", [:]),
      ("POST", "/settings/reset", "POST /settings/reset", [:]),
      ("POST", "/settings/calendar", "POST /settings/calendar", [:]),
      ("POST", "/settings/calendar/replace", "POST /settings/calendar/replace", [:]),
      ("POST", "/settings/calendar/delete", "POST /settings/calendar/delete", [:]),
      ("GET", "/calendar/\(sampleSecret).ics", "GET /calendar/{secret}.ics", [:]),
      ("GET", "/settings/export", "GET /settings/export", [:]),
      ("GET", "/settings/export/checklists.json", "GET /settings/export/checklists.json", [:]),
      ("GET", "/settings/export/checklists.md", "GET /settings/export/checklists.md", [:]),
      ("GET", "/settings/export/checklists.ics", "GET /settings/export/checklists.ics", [:]),
      ("GET", "/settings/export/Checklists.plist", "GET /settings/export/Checklists.plist", [:]),
      ("GET", "/settings/import", "GET /settings/import", [:]),
      ("POST", "/settings/import", "POST /settings/import", [:]),
      ("GET", "/settings/import/preview", "GET /settings/import/preview", [:]),
      ("POST", "/settings/import/confirm", "POST /settings/import/confirm", [:]),
      ("POST", "/settings/import/cancel", "POST /settings/import/cancel", [:]),
      ("GET", "/settings/devices", "GET /settings/devices", [:]),
      ("POST", "/settings/devices/code", "POST /settings/devices/code", [:]),
      (
        "POST", "/settings/devices/sign-out-others", "POST /settings/devices/sign-out-others",
        [:]
      ),
      (
        "POST", "/settings/devices/switch-back", "POST /settings/devices/switch-back", [:]
      ),
      (
        "POST", "/settings/devices/3/sign-out", "POST /settings/devices/{browser}/sign-out",
        [.browser: 3]
      ),
      ("POST", "/settings/devices/apps", "POST /settings/devices/apps", [:]),
      ("POST", "/settings/devices/apps/2/end", "POST /settings/devices/apps/{app}/end", [.app: 2]),
      ("GET", "/link", "GET /link", [:]),
      ("POST", "/link", "POST /link", [:]),
      ("GET", "/link/\(sampleSecret)", "GET /link/{secret}", [:]),
      ("GET", "/s/\(shareToken)", "GET /s/{secret}", [:]),
      ("POST", "/s/\(shareToken)/items", "POST /s/{secret}/items", [:]),
      ("POST", "/s/\(shareToken)/items/42", "POST /s/{secret}/items/{item}", [.item: 42]),
      ("GET", "/s/\(shareToken)/items/42/edit", "GET /s/{secret}/items/{item}/edit", [.item: 42]),
      (
        "POST", "/s/\(shareToken)/items/42/toggle", "POST /s/{secret}/items/{item}/toggle",
        [.item: 42]
      ),
      (
        "POST", "/s/\(shareToken)/items/42/delete", "POST /s/{secret}/items/{item}/delete",
        [.item: 42]
      ),
      ("OPTIONS", "/dav/", "OPTIONS /dav/", [:]),
      ("OPTIONS", "/dav/principal/", "OPTIONS /dav/principal/", [:]),
      ("OPTIONS", "/dav/lists/", "OPTIONS /dav/lists/", [:]),
      ("OPTIONS", "/dav/lists/7/", "OPTIONS /dav/lists/{collection}/", [:]),
      ("OPTIONS", "/dav/lists/7/a.ics", "OPTIONS /dav/lists/{collection}/{resource}", [:]),
      ("GET", "/.well-known/caldav", "GET /.well-known/caldav", [:]),
      ("PROPFIND", "/.well-known/caldav", "PROPFIND /.well-known/caldav", [:]),
      ("PROPFIND", "/dav/", "PROPFIND /dav/", [:]),
      ("PROPFIND", "/dav/principal/", "PROPFIND /dav/principal/", [:]),
      ("PROPFIND", "/dav/lists/", "PROPFIND /dav/lists/", [:]),
      ("PROPFIND", "/dav/lists/7/", "PROPFIND /dav/lists/{collection}/", [:]),
      ("REPORT", "/dav/lists/7/", "REPORT /dav/lists/{collection}/", [:]),
      ("PROPPATCH", "/dav/lists/7/", "PROPPATCH /dav/lists/{collection}/", [:]),
      ("DELETE", "/dav/lists/7/", "DELETE /dav/lists/{collection}/", [:]),
      ("MKCALENDAR", "/dav/lists/Garden/", "MKCALENDAR /dav/lists/{collection}/", [:]),
      ("GET", "/dav/lists/7/A%20B.ics", "GET /dav/lists/{collection}/{resource}", [:]),
      ("PUT", "/dav/lists/7/A%20B.ics", "PUT /dav/lists/{collection}/{resource}", [:]),
      ("DELETE", "/dav/lists/7/A%20B.ics", "DELETE /dav/lists/{collection}/{resource}", [:]),
    ]

  /// A token of a secret's form (whether it is anyone's is the handler's business).
  static let sampleSecret = String(repeating: "0123456789abcdef", count: 4)
  /// A token of a share link's form (32 hex digits).
  static let shareToken = String(repeating: "0123456789abcdef", count: 2)

  static func resolve(_ method: String, _ path: String) -> RouteTable.Outcome {
    RouteTable.checklists.resolve(method: HTTPRequest.Method(method)!, path: path)
  }

  /// The route an outcome reached and its ids; nil for a `404` or `405`.
  static func reached(_ outcome: RouteTable.Outcome)
    -> (route: String, ids: [PathParameter: Int])?
  {
    guard case .matched(let match) = outcome else { return nil }
    var ids: [PathParameter: Int] = [:]
    for name in PathParameter.allCases { ids[name] = match.parameters[name] }
    return (match.route.description, ids)
  }

  /// The parameters of a matched outcome.
  static func matchedParametersOf(_ outcome: RouteTable.Outcome) -> RouteParameters? {
    if case .matched(let match) = outcome { match.parameters } else { nil }
  }

  static func isNotFound(_ outcome: RouteTable.Outcome) -> Bool {
    if case .notFound = outcome { true } else { false }
  }

  @Test func everyAddressOfTheProductRoutes() throws {
    for entry in Self.addresses {
      let reached = try #require(Self.reached(Self.resolve(entry.method, entry.path)))
      #expect(reached.route == entry.route, "\(entry.method) \(entry.path)")
      #expect(reached.ids == entry.ids, "\(entry.method) \(entry.path)")
    }
    #expect(Self.addresses.count == RouteTable.checklists.routes.count)
  }

  @Test func headIsRoutedAsGet() throws {
    for entry in Self.addresses where entry.method == "GET" {
      let reached = try #require(Self.reached(Self.resolve("HEAD", entry.path)))
      #expect(reached.route == entry.route && reached.ids == entry.ids)
    }
  }

  @Test func routesFromARequestValue() throws {
    let request = Request(method: .post, path: "/lists/3/items/9/toggle", query: "x=1")
    let reached = try #require(Self.reached(RouteTable.checklists.resolve(request)))
    #expect(reached.route == "POST /lists/{list}/items/{item}/toggle")
    #expect(reached.ids == [.list: 3, .item: 9])
  }

  @Test func changesArePostsAndScreensAreGets() throws {
    for entry in Self.addresses {
      guard case .matched(let match) = Self.resolve(entry.method, entry.path) else {
        Issue.record("\(entry.method) \(entry.path) not routed")
        continue
      }
      #expect(match.route.isChange == (entry.method == "POST"), "\(match.route)")
    }
  }

  @Test func otherMethodsOnKnownAddressesAre405WithAllow() {
    let cases: [(method: String, path: String, allow: String)] = [
      ("POST", "/", "GET, HEAD"),
      ("DELETE", "/lists", "GET, HEAD, POST"),
      ("PUT", "/lists/7", "GET, HEAD, POST"),
      ("POST", "/lists/new", "GET, HEAD"),
      ("GET", "/lists/7/delete", "POST"),
      ("HEAD", "/lists/7/items", "POST"),
      ("GET", "/lists/7/items/42", "POST"),
      ("GET", "/lists/7/items/42/toggle", "POST"),
      ("POST", "/lists/7/items/42/edit", "GET, HEAD"),
      ("OPTIONS", "/settings", "GET, HEAD, POST"),
      ("GET", "/settings/reset", "POST"),
      ("GET", "/deleted/5/restore", "POST"),
      ("POST", "/deleted", "GET, HEAD"),
      ("GET", "/lists/7/remove-checked", "POST"),
      // Methods are case-sensitive: `get` is not `GET`.
      ("get", "/lists", "GET, HEAD, POST"),
    ]
    for entry in cases {
      let outcome = Self.resolve(entry.method, entry.path)
      #expect(outcome.allowHeader == entry.allow, "\(entry.method) \(entry.path): \(outcome)")
    }
    #expect(RouteTable.Outcome.notFound.allowHeader == nil)
  }

  @Test func hostileIdentifiersAreNotFound() {
    let ids = [
      "0", "-1", "+1", "01", "007", "abc", "1a", "1.0", "1e3", " 1", "1 ", "%31",
      "99999999999999999999", "1000000000000000000", "١", "１",
    ]
    for id in ids {
      #expect(Self.isNotFound(Self.resolve("GET", "/lists/\(id)")), "list \(id)")
      #expect(Self.isNotFound(Self.resolve("GET", "/lists/1/items/\(id)/edit")), "item \(id)")
      #expect(Self.isNotFound(Self.resolve("POST", "/deleted/\(id)/restore")), "deletion \(id)")
    }
  }

  @Test func theLargestIdentifierHas18Digits() throws {
    let largest = try #require(Self.reached(Self.resolve("GET", "/lists/999999999999999999")))
    #expect(largest.route == "GET /lists/{list}" && largest.ids == [.list: 999_999_999_999_999_999])
    let smallest = try #require(Self.reached(Self.resolve("GET", "/lists/1")))
    #expect(smallest.route == "GET /lists/{list}" && smallest.ids == [.list: 1])
  }

  @Test func percentEncodedPathsAreNeverDecoded() {
    let paths = [
      "/lists/%2e%2e", "/lists/%2E%2E/edit", "/lists%2F7", "/lists/7%2Fedit", "/%6cists",
      "/lists/..", "/lists/.", "/lists/7/../7", "/lists/7/items/%34%32/toggle",
    ]
    for path in paths {
      #expect(Self.isNotFound(Self.resolve("GET", path)), "\(path)")
      #expect(Self.isNotFound(Self.resolve("POST", path)), "\(path)")
    }
  }

  @Test func trailingSlashesEmptySegmentsAndOtherShapesAreNotFound() {
    let paths = [
      "", "lists", "/lists/", "//lists", "/lists//7", "/lists/7/", "/settings/", "/Lists",
      "/lists/new/edit", "/lists/7/items/42/toggle/more", "/lists/7/items", "/settings/reset/x",
      "/lists/7/item/42/edit", "/settings/7", "/favicon.ico", "/lists;x", "/lists?x",
      "/" + String(repeating: "a", count: 10_000),
    ]
    for path in paths {
      // `/lists/7/items` is a POST-only address, so it is a 405 for GET, not a 404.
      if path == "/lists/7/items" {
        #expect(Self.resolve("GET", path).allowHeader == "POST")
        continue
      }
      #expect(Self.isNotFound(Self.resolve("GET", path)), "\(path)")
    }
  }

  @Test func identifierParsing() {
    #expect(RoutePattern.identifier("1".utf8) == 1)
    #expect(RoutePattern.identifier("123456789012345678".utf8) == 123_456_789_012_345_678)
    #expect(RoutePattern.identifier("1234567890123456789".utf8) == nil)
    #expect(RoutePattern.identifier("".utf8) == nil)
    #expect(RoutePattern.identifier("0".utf8) == nil)
  }

  /// Each route of the table is reached by its own method at a path of its
  /// pattern (ids filled in), with those ids; none is shadowed by another.
  @Test func everyRouteOfTheTableIsReachable() throws {
    let sample: [PathParameter: Int] = [
      .list: 7, .item: 42, .deletion: 5, .browser: 3, .app: 2, .template: 9,
    ]
    for route in RouteTable.checklists.routes {
      var path = route.pattern.description.replacing("{secret}", with: Self.sampleSecret)
        .replacing("{resource}", with: "todo.ics")
      for (name, id) in sample { path = path.replacing("{\(name.rawValue)}", with: "\(id)") }
      let reached = try #require(Self.reached(Self.resolve("\(route.method)", path)), "\(route)")
      #expect(reached.route == route.description)
      #expect(reached.ids == sample.filter { route.pattern.parameterNames.contains($0.key) })
    }
  }

  /// `Allow` lists what the table declares at an address, and nothing else:
  /// declaring one more route there changes it.
  @Test func allowFollowsFromTheTable() throws {
    let answer: Route.ChangeHandler = { _ in Response(status: .seeOther) }
    let postOnly = RouteTable([.post("/things/{list}", answer)])
    #expect(postOnly.resolve(method: .get, path: "/things/3").allowHeader == "POST")
    #expect(Self.isNotFound(postOnly.resolve(method: .get, path: "/things/new")))
    let both = RouteTable(
      [.post("/things/{list}", answer), .get("/things/{list}", { _ in Response(status: .ok) })])
    #expect(
      both.resolve(method: HTTPRequest.Method("PUT")!, path: "/things/3").allowHeader
        == "GET, HEAD, POST")
    let reached = try #require(Self.reached(both.resolve(method: .get, path: "/things/3")))
    #expect(reached.route == "GET /things/{list}" && reached.ids == [.list: 3])
  }

  /// Only the Checklist and All Lists screens are kept whole by the memo,
  /// and a shared list's page by the shared pages' memo.
  @Test func theRevisitedScreensAreTheChecklistAndAllLists() {
    let revisited = RouteTable.checklists.routes.filter(\.isRevisited).map(\.description)
    #expect(Set(revisited) == ["GET /lists", "GET /lists/{list}", "GET /s/{secret}"])
    let shared = RouteTable.checklists.routes.filter(\.isShared).filter(\.isRevisited)
    #expect(shared.map(\.description) == ["GET /s/{secret}"])
  }

  /// Every `POST` route checks its form against forgery before it runs (a
  /// post without the token is refused and changes nothing); no `GET`
  /// route does.
  @Test func theForgeryCheckFollowsFromTheTable() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    let before = browser.storedFiles()
    for route in RouteTable.checklists.routes {
      let path = route.pattern.description.replacing("{list}", with: "1")
        .replacing("{item}", with: "1").replacing("{deletion}", with: "1")
        .replacing("{browser}", with: "1").replacing("{app}", with: "1")
        .replacing("{template}", with: "1").replacing("{secret}", with: Self.sampleSecret)
      // An upload's form is multipart: without its token, refused the same.
      let response =
        route.maximumBodySize != nil
        ? browser.postMultipart(path, file: ("x.json", Array("{}".utf8)), withToken: false)
        : route.isChange
          ? browser.post(path, [("name", "x"), ("text", "x")], withToken: false)
          : browser.get(path)
      if route.endpoint is DAVEndpoint {
        // A CalDAV client's: no form; asked with GET and no password, a
        // redirect, 405 or 401.
        #expect([301, 401, 405].contains(response.status.code), "\(route): asked with GET")
      } else if route.isShared {
        #expect(response.status == 404, "\(route): nobody's link")
      } else if route.isChange {
        #expect(response.status == 403, "\(route)")
      } else if route.isFeed {
        #expect(response.status == 404, "\(route): nobody's secret")
      } else {
        #expect([200, 303].contains(response.status), "\(route): \(response.status)")
      }
    }
    #expect(browser.storedFiles() == before)
  }

  /// Only the import's upload reads a body past the common cap, 1 MiB;
  /// its address is all literals, so the server tells it before routing.
  @Test func onlyTheUploadHasALargerBody() {
    #expect(RouteTable.checklists.largerBodies == ["/settings/import": 1 << 20])
    let uploads = RouteTable.checklists.routes.filter { $0.maximumBodySize != nil }
    #expect(uploads.map(\.description) == ["POST /settings/import"])
    #expect(uploads.allSatisfy { $0.isChange })
  }

  /// A secret segment takes 1 to 64 lower-case letters and digits before
  /// its suffix, and nothing else; it is never an id.
  @Test func secretTokensAndTheirSuffix() throws {
    let routed = try #require(
      Self.matchedParametersOf(Self.resolve("GET", "/calendar/\(Self.sampleSecret).ics")))
    #expect(routed.secret == Self.sampleSecret)
    #expect(PathParameter.allCases.allSatisfy { routed[$0] == nil })
    #expect(!"\(routed)".contains(Self.sampleSecret))
    #expect(Self.matchedParametersOf(Self.resolve("GET", "/calendar/a.ics"))?.secret == "a")
    for token in [
      "", "A", Self.sampleSecret + "0", "a-b", "a.b", "%61", "a b", "ü", "a/b", ".ics",
    ] {
      #expect(Self.isNotFound(Self.resolve("GET", "/calendar/\(token).ics")), "\(token)")
    }
    for path in ["/calendar/abc", "/calendar/abc.ic", "/calendar/abc.icsx", "/calendar/.ics"] {
      #expect(Self.isNotFound(Self.resolve("GET", path)), "\(path)")
    }
    #expect(Self.resolve("POST", "/calendar/abc.ics").allowHeader == "GET, HEAD")
    #expect(RoutePattern.secretToken("abc".utf8) == "abc")
    #expect(RoutePattern.secretToken(Array(repeating: UInt8(ascii: "a"), count: 65)) == nil)
  }

  /// A secret alone in its segment (`/s/{secret}`) takes 1 to 64
  /// lower-case letters and digits, nothing else, and nothing more than its
  /// segment; it is never an id, and never printed.
  @Test func aSecretAloneInItsSegment() throws {
    let token = Self.shareToken
    let page = try #require(Self.matchedParametersOf(Self.resolve("GET", "/s/\(token)")))
    #expect(page.secret == token && PathParameter.allCases.allSatisfy { page[$0] == nil })
    #expect(!"\(page)".contains(token))
    let toggle = try #require(
      Self.matchedParametersOf(Self.resolve("POST", "/s/\(token)/items/9/toggle")))
    #expect(toggle.secret == token && toggle[.item] == 9)
    #expect(!"\(toggle)".contains(token) && "\(toggle)".contains("item=9"))
    for bad in [
      "", "A", String(repeating: "a", count: 65), "a-b", "a.b", "%61", "a b", "ü", ".", "..",
      token.uppercased(), token + ".ics",
    ] {
      #expect(Self.isNotFound(Self.resolve("GET", "/s/\(bad)")), "\(bad)")
      #expect(Self.isNotFound(Self.resolve("POST", "/s/\(bad)/items/1/toggle")), "\(bad)")
    }
    for path in [
      "/s", "/s/", "/s/\(token)/", "/s//\(token)", "/s/\(token)/x", "/s/\(token)/items/0/toggle",
      "/s/\(token)/items/01/toggle", "/s/\(token)/items/1/toggle/x", "/s/\(token)/lists/1",
      "/S/\(token)", "/s/%2e%2e/\(token)", "/s/\(token)/%2e%2e/items",
    ] {
      #expect(Self.isNotFound(Self.resolve("GET", path)), "\(path)")
      #expect(Self.isNotFound(Self.resolve("POST", path)), "\(path)")
    }
    #expect(Self.resolve("POST", "/s/\(token)").allowHeader == "GET, HEAD")
    #expect(Self.resolve("GET", "/s/\(token)/items/1/toggle").allowHeader == "POST")
    #expect(Self.resolve("GET", "/s/\(token)/items/1").allowHeader == "POST")
    // The calendar's secret still needs its extension, and a bare one is no calendar.
    #expect(Self.isNotFound(Self.resolve("GET", "/calendar/\(token)")))
  }

  /// A secret alone in its segment has the shape of an id: the table
  /// refuses the two at the same place, as it refuses two ids, since both
  /// would match a run of digits.
  @Test func aBareSecretHasTheShapeOfAnId() {
    #expect(RoutePattern("/s/{secret}").shape == RoutePattern("/s/{list}").shape)
    #expect(RoutePattern("/s/{secret}/items").shape == RoutePattern("/s/{item}/items").shape)
    #expect(RoutePattern("/c/{secret}.ics").shape != RoutePattern("/c/{list}").shape)
    #expect(
      RoutePattern("/s/{secret}").carriesSecret && RoutePattern("/s/{secret}.ics").carriesSecret)
    #expect(!RoutePattern("/s/{list}").carriesSecret)
  }

  /// A handler that asks for an id its route's path does not carry is a
  /// mistake in the table, told apart from a missing list.
  @Test func anIdThePathDoesNotCarryIsAMistake() throws {
    let parameters = RouteParameters(names: [.list], ids: [7])
    #expect(try parameters.require(.list) == 7)
    #expect(parameters[.item] == nil)
    #expect(throws: RouteParameters.Missing.self) { try parameters.require(.item) }
  }
}
