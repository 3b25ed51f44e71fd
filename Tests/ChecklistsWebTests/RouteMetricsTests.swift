import Documents
import FastCGI
import Foundation
import HTTPTypes
import ServiceMetrics
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Each answer is counted once, in `Application.respond`, under the route
/// that answered it: a memo hit and a `304` under the page's route, an
/// address no route takes under one label, never its path.
@Suite struct RouteMetricsTests {
  let metrics = RequestMetrics(routes: .checklists)

  func position(_ method: String, _ pattern: String) throws -> Int {
    try #require(
      metrics.routes.firstIndex(of: RequestMetrics.RouteLabel(method: method, pattern: pattern)))
  }

  /// Waits until the last change is old enough for the memo to trust it.
  func settle() {
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
  }

  @Test func aPageComputedKeptAndRevalidatedIsCountedUnderItsRoute() throws {
    let browser = try ApplicationHarness(requestMetrics: metrics)
    #expect(browser.post("/lists/1/items", [("text", "milk")]).status == .seeOther)
    settle()
    let page = try position("GET", "/lists/{list}")
    let before = metrics.answers(route: page, status: 200)
    let computed = browser.get("/lists/1")
    let key = try #require(
      ResponseMemo.Key(
        Request(method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])))
    #expect(computed.status == .ok)
    #expect(browser.application.memo.entry(for: key) != nil, "the page is kept")
    #expect(browser.get("/lists/1").status == .ok)  // from the memo
    let etag = try #require(computed.headerFields[.eTag])
    #expect(browser.get("/lists/1", headerFields: [.ifNoneMatch: etag]).status == .notModified)
    #expect(metrics.answers(route: page, status: 200) == before + 2)
    #expect(metrics.answers(route: page, status: 304) == 1)
    #expect(metrics.answers(route: try position("POST", "/lists/{list}/items"), status: 303) == 1)
  }

  @Test func aSharedPageKeptIsCountedUnderItsRoute() throws {
    // Answered from the shared memo before it is routed (`SharedMemoLookup`).
    let browser = try ApplicationHarness(requestMetrics: metrics)
    let list = try SharingTests.createList(browser, "Groceries")
    let token = try SharingTests.share(browser, list: list, "read-only")
    settle()
    let page = try position("GET", "/s/{secret}")
    let computed = SharingTests.get(browser, "/s/\(token)")
    #expect(computed.status == .ok)
    let key = try #require(
      ResponseMemo.Key(sharedPage: Request(method: .get, path: "/s/\(token)")))
    #expect(browser.application.sharedPages.entry(for: key) != nil, "the page is kept")
    let kept = SharingTests.get(browser, "/s/\(token)")
    #expect(kept.status == .ok && kept.body == computed.body)
    let etag = try #require(computed.headerFields[.eTag])
    #expect(SharingTests.get(browser, "/s/\(token)", [.ifNoneMatch: etag]).status == .notModified)
    #expect(metrics.answers(route: page, status: 200) == 2)
    #expect(metrics.answers(route: page, status: 304) == 1)
    #expect(metrics.answers(route: metrics.unmatchedPosition, status: 200) == 0)
  }

  @Test func anAddressNoRouteTakesIsOneLabelWhateverItsPath() throws {
    let browser = try ApplicationHarness(requestMetrics: metrics)
    browser.get("/no/such/page")
    browser.get("/lists/1/nothing-here")
    browser.send(Request(method: .put, path: "/lists", headerFields: [:]))
    #expect(metrics.answers(route: metrics.unmatchedPosition, status: 404) == 2)
    #expect(metrics.answers(route: metrics.unmatchedPosition, status: 405) == 1)
    browser.get("/health")
    #expect(metrics.answers(route: metrics.healthPosition, status: 200) == 1)
    var text = PrometheusText()
    metrics.write(into: &text)
    let written = String(decoding: text.bytes, as: UTF8.self)
    #expect(!written.contains("no/such") && !written.contains("nothing-here"))
    #expect(written.contains(#"route="unmatched",status="404"} 2"#))
  }

  @Test func aMatchsPositionIsItsRoutesPlaceInTheTableAndTheMetrics() throws {
    let table = RouteTable.checklists
    #expect(metrics.routes.count == table.routes.count + 2)
    for (method, path, pattern) in [
      (HTTPRequest.Method.get, "/", "/"), (.get, "/lists/7", "/lists/{list}"),
      (.head, "/lists", "/lists"),
      (.post, "/lists/7/items/3/toggle", "/lists/{list}/items/{item}/toggle"),
      (.get, "/s/abc123", "/s/{secret}"),
    ] {
      guard case .matched(let match) = table.resolve(method: method, path: path) else {
        Issue.record("\(path) is not routed")
        continue
      }
      #expect(table.routes[match.position] === match.route, "\(path)")
      #expect(metrics.routes[match.position].pattern == pattern, "\(path)")
      #expect(metrics.routes[match.position].method == (method == .post ? "POST" : "GET"))
    }
  }
}
