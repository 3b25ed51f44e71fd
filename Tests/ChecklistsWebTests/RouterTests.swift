import FastCGI
import Testing

@testable import ChecklistsWeb

@Suite struct RouterTests {
  /// Every address of the specification with the method that reaches it.
  static let table: [(method: String, path: String, route: Route)] = [
    ("GET", "/", .landing),
    ("GET", "/lists", .allLists),
    ("GET", "/lists/new", .newListForm),
    ("POST", "/lists", .createList),
    ("GET", "/lists/7", .checklist(list: 7)),
    ("GET", "/lists/7/edit", .editListForm(list: 7)),
    ("POST", "/lists/7", .updateList(list: 7)),
    ("POST", "/lists/7/delete", .deleteList(list: 7)),
    ("POST", "/lists/7/items", .addItem(list: 7)),
    ("GET", "/lists/7/items/42/edit", .editItemForm(list: 7, item: 42)),
    ("POST", "/lists/7/items/42", .updateItem(list: 7, item: 42)),
    ("POST", "/lists/7/items/42/toggle", .toggleItem(list: 7, item: 42)),
    ("POST", "/lists/7/items/42/delete", .deleteItem(list: 7, item: 42)),
    ("GET", "/settings", .settings),
    ("POST", "/settings", .saveSettings),
    ("POST", "/settings/reset", .resetSettings),
  ]

  @Test func everyAddressOfTheSpecificationRoutes() {
    for entry in Self.table {
      #expect(
        Router.resolve(method: entry.method, path: entry.path)
          == .route(entry.route, headOnly: false),
        "\(entry.method) \(entry.path)")
    }
  }

  @Test func headIsRoutedAsGetWithTheBodyDropped() {
    for entry in Self.table where entry.method == "GET" {
      #expect(
        Router.resolve(method: "HEAD", path: entry.path) == .route(entry.route, headOnly: true))
    }
  }

  @Test func routesFromARequestValue() {
    let request = Request(method: "POST", path: "/lists/3/items/9/toggle", query: "x=1")
    #expect(Router.resolve(request) == .route(.toggleItem(list: 3, item: 9), headOnly: false))
  }

  @Test func changesArePostsAndScreensAreGets() {
    for entry in Self.table {
      #expect(entry.route.isChange == (entry.method == "POST"), "\(entry.route)")
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
      // Methods are case-sensitive: `get` is not `GET`.
      ("get", "/lists", "GET, HEAD, POST"),
    ]
    for entry in cases {
      let outcome = Router.resolve(method: entry.method, path: entry.path)
      #expect(outcome.allowHeader == entry.allow, "\(entry.method) \(entry.path): \(outcome)")
    }
    #expect(Router.Outcome.notFound.allowHeader == nil)
  }

  @Test func hostileIdentifiersAreNotFound() {
    let ids = [
      "0", "-1", "+1", "01", "007", "abc", "1a", "1.0", "1e3", " 1", "1 ", "%31",
      "99999999999999999999", "1000000000000000000", "١", "１",
    ]
    for id in ids {
      #expect(Router.resolve(method: "GET", path: "/lists/\(id)") == .notFound, "list \(id)")
      #expect(
        Router.resolve(method: "GET", path: "/lists/1/items/\(id)/edit") == .notFound, "item \(id)")
    }
  }

  @Test func theLargestIdentifierHas18Digits() {
    #expect(
      Router.resolve(method: "GET", path: "/lists/999999999999999999")
        == .route(.checklist(list: 999_999_999_999_999_999), headOnly: false))
    #expect(
      Router.resolve(method: "GET", path: "/lists/1")
        == .route(.checklist(list: 1), headOnly: false))
  }

  @Test func percentEncodedPathsAreNeverDecoded() {
    let paths = [
      "/lists/%2e%2e", "/lists/%2E%2E/edit", "/lists%2F7", "/lists/7%2Fedit", "/%6cists",
      "/lists/..", "/lists/.", "/lists/7/../7", "/lists/7/items/%34%32/toggle",
    ]
    for path in paths {
      #expect(Router.resolve(method: "GET", path: path) == .notFound, "\(path)")
      #expect(Router.resolve(method: "POST", path: path) == .notFound, "\(path)")
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
        #expect(Router.resolve(method: "GET", path: path).allowHeader == "POST")
        continue
      }
      #expect(Router.resolve(method: "GET", path: path) == .notFound, "\(path)")
    }
  }

  @Test func identifierParsing() {
    #expect(Router.identifier("1") == 1)
    #expect(Router.identifier("123456789012345678") == 123_456_789_012_345_678)
    #expect(Router.identifier("1234567890123456789") == nil)
    #expect(Router.identifier("") == nil)
    #expect(Router.identifier("0") == nil)
  }
}
