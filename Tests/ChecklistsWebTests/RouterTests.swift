import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

@Suite struct RouterTests {
  /// Every address of the specification with the method that reaches it.
  static let table: [(method: HTTPRequest.Method, path: String, route: Route)] = [
    (.get, "/", .landing),
    (.get, "/lists", .allLists),
    (.get, "/lists/new", .newListForm),
    (.post, "/lists", .createList),
    (.get, "/lists/7", .checklist(list: 7)),
    (.get, "/lists/7/edit", .editListForm(list: 7)),
    (.post, "/lists/7", .updateList(list: 7)),
    (.post, "/lists/7/delete", .deleteList(list: 7)),
    (.post, "/lists/7/items", .addItem(list: 7)),
    (.get, "/lists/7/items/42/edit", .editItemForm(list: 7, item: 42)),
    (.post, "/lists/7/items/42", .updateItem(list: 7, item: 42)),
    (.post, "/lists/7/items/42/toggle", .toggleItem(list: 7, item: 42)),
    (.post, "/lists/7/items/42/delete", .deleteItem(list: 7, item: 42)),
    (.get, "/settings", .settings),
    (.post, "/settings", .saveSettings),
    (.post, "/settings/reset", .resetSettings),
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
    for entry in Self.table where entry.method == .get {
      #expect(
        Router.resolve(method: .head, path: entry.path) == .route(entry.route, headOnly: true))
    }
  }

  @Test func routesFromARequestValue() {
    let request = Request(method: .post, path: "/lists/3/items/9/toggle", query: "x=1")
    #expect(Router.resolve(request) == .route(.toggleItem(list: 3, item: 9), headOnly: false))
  }

  @Test func changesArePostsAndScreensAreGets() {
    for entry in Self.table {
      #expect(entry.route.isChange == (entry.method == .post), "\(entry.route)")
    }
  }

  @Test func otherMethodsOnKnownAddressesAre405WithAllow() {
    let cases: [(method: HTTPRequest.Method, path: String, allow: String)] = [
      (.post, "/", "GET, HEAD"),
      (.delete, "/lists", "GET, HEAD, POST"),
      (.put, "/lists/7", "GET, HEAD, POST"),
      (.post, "/lists/new", "GET, HEAD"),
      (.get, "/lists/7/delete", "POST"),
      (.head, "/lists/7/items", "POST"),
      (.get, "/lists/7/items/42", "POST"),
      (.get, "/lists/7/items/42/toggle", "POST"),
      (.post, "/lists/7/items/42/edit", "GET, HEAD"),
      (.options, "/settings", "GET, HEAD, POST"),
      (.get, "/settings/reset", "POST"),
      // Methods are case-sensitive: `get` is not `GET`.
      (HTTPRequest.Method("get")!, "/lists", "GET, HEAD, POST"),
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
      #expect(Router.resolve(method: .get, path: "/lists/\(id)") == .notFound, "list \(id)")
      #expect(
        Router.resolve(method: .get, path: "/lists/1/items/\(id)/edit") == .notFound, "item \(id)")
    }
  }

  @Test func theLargestIdentifierHas18Digits() {
    #expect(
      Router.resolve(method: .get, path: "/lists/999999999999999999")
        == .route(.checklist(list: 999_999_999_999_999_999), headOnly: false))
    #expect(
      Router.resolve(method: .get, path: "/lists/1")
        == .route(.checklist(list: 1), headOnly: false))
  }

  @Test func percentEncodedPathsAreNeverDecoded() {
    let paths = [
      "/lists/%2e%2e", "/lists/%2E%2E/edit", "/lists%2F7", "/lists/7%2Fedit", "/%6cists",
      "/lists/..", "/lists/.", "/lists/7/../7", "/lists/7/items/%34%32/toggle",
    ]
    for path in paths {
      #expect(Router.resolve(method: .get, path: path) == .notFound, "\(path)")
      #expect(Router.resolve(method: .post, path: path) == .notFound, "\(path)")
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
        #expect(Router.resolve(method: .get, path: path).allowHeader == "POST")
        continue
      }
      #expect(Router.resolve(method: .get, path: path) == .notFound, "\(path)")
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
