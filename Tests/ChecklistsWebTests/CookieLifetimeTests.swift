import Documents
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The landing rule holds through every cache path (a revalidated `304`,
/// `HEAD`, the response memo, the page cache), and a visitor who keeps
/// coming back is never forgotten by their browser.
@Suite struct CookieLifetimeTests {
  private func settle() {
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
  }

  private func setCookies(_ response: Response) -> [String] {
    response.setCookies
  }

  /// Open list A, go to All Lists, open A again from a cached copy (the
  /// browser revalidates): `/` must open A. Repeated, so that the second
  /// and third rounds meet pages kept by the memo and the page cache.
  @Test(arguments: [HTTPRequest.Method.get, .head])
  func aRevalidatedListStillBecomesTheLastList(method: HTTPRequest.Method) throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.post("/lists", [("name", "Zebra")])  // row 1 on All Lists
    for round in 1...3 {
      let etag = try #require(browser.get("/lists/2").headerFields[.eTag])
      browser.get("/lists")
      #expect(browser.cookies["ChecklistIndex"] == "-1")
      settle()
      let revalidated = browser.get("/lists/2", headerFields: [.ifNoneMatch: etag], method: method)
      #expect(revalidated.status == .notModified, "round \(round)")
      #expect(setCookies(revalidated).contains { $0.hasPrefix("ChecklistIndex=1;") }, "\(round)")
      let landing = browser.get("/")
      #expect(
        landing.status == .seeOther && landing.headerFields[.location] == "/lists/2",
        "round \(round)")
    }
  }

  /// The mirror case: a revalidated All Lists page sets `ChecklistIndex` to -1.
  @Test func aRevalidatedAllListsStillLandsOnAllLists() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    for round in 1...3 {
      let etag = try #require(browser.get("/lists").headerFields[.eTag])
      browser.get("/lists/1")
      #expect(browser.cookies["ChecklistIndex"] == "0")
      settle()
      let revalidated = browser.get("/lists", headerFields: [.ifNoneMatch: etag])
      #expect(revalidated.status == .notModified, "round \(round)")
      #expect(setCookies(revalidated).contains { $0.hasPrefix("ChecklistIndex=-1;") })
      #expect(browser.get("/").status == .ok, "All Lists, round \(round)")
    }
  }

  /// A returning visitor's cookie is renewed once it is a day old (or in
  /// the older form without a day), together with `ChecklistIndex`, and
  /// their directory is marked active; a current cookie is not sent again.
  @Test func aReturningVisitorsCookiesAreRenewedOnceADay() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")
    let issued = try #require(browser.cookies["visitor"])
    let id = String(issued.prefix(32))
    let today = VisitorCookie.today()
    #expect(issued == "\(id).\(today)")
    #expect(setCookies(browser.get("/lists/1")).isEmpty, "a current cookie is not sent again")

    let directory = try visitorDirectory(browser)
    for stale in ["\(id).\(today - 1)", "\(id).\(today - 399)", id, "\(id).\(today + 5)"] {
      try backdate(directory, days: 30)
      let response = browser.get(
        "/lists/1", headerFields: [.cookie: "visitor=\(stale); ChecklistIndex=0"])
      #expect(response.status == .ok)
      let sent = setCookies(response)
      #expect(
        sent.contains { $0.hasPrefix("visitor=\(id).\(today); Max-Age=34560000;") }, "\(stale)")
      #expect(sent.contains { $0.hasPrefix("ChecklistIndex=0; Max-Age=34560000;") }, "\(stale)")
      #expect(browser.text(response).contains("milk"), "the same visitor")
      #expect(try idleDays(directory) == 0, "marked active (\(stale))")
    }
  }

  /// A kept page is never served once the cookie in its key falls due:
  /// the answer would have to renew it.
  @Test func theMemoDoesNotOutliveTheCookieItWasKeptFor() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")
    settle()
    let request = Request(
      method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    browser.application.respond(to: request)
    let key = try #require(ResponseMemo.Key(request))
    let due = Int64(VisitorCookie.today() + VisitorCookie.renewalDays) * 86_400
    #expect(browser.application.memo.entry(for: key, now: due - 1) != nil)
    #expect(browser.application.memo.entry(for: key, now: due) == nil)
  }

  /// Over HTTPS every cookie is `__Host-` (Secure, Path=/, no Domain).
  @Test func httpsCookiesAreHostPrefixed() throws {
    let browser = try ApplicationHarness()
    let first = browser.send(Request(method: .get, path: "/lists/1", isHTTPS: true))
    let sent = setCookies(first)
    #expect(sent.contains { $0.hasPrefix("__Host-visitor=") && $0.hasSuffix("; Secure") })
    #expect(sent.contains { $0.hasPrefix("__Host-ChecklistIndex=0;") && $0.hasSuffix("; Secure") })
    #expect(!sent.contains { $0.hasPrefix("visitor=") || $0.hasPrefix("ChecklistIndex=") })
  }

  private func visitorDirectory(_ browser: ApplicationHarness) throws -> String {
    let id = String(try #require(browser.cookies["visitor"]).prefix(32))
    return VisitorDirectory(dataDirectory: browser.data, visitorID: id).path
  }

  /// Whole days since the latest modification of the directory's files
  /// (what `checklists check` and `prune` count a visitor's absence by).
  private func idleDays(_ directory: String) throws -> Int {
    let times = try FileManager.default.contentsOfDirectory(atPath: directory).map {
      try #require(
        FileManager.default.attributesOfItem(atPath: "\(directory)/\($0)")[.modificationDate]
          as? Date)
    }
    let latest = try #require(times.max())
    return Int(Date().timeIntervalSince(latest) / 86_400)
  }

  /// Sets the directory's and its files' times `days` back.
  private func backdate(_ directory: String, days: Int) throws {
    let past = Date(timeIntervalSinceNow: -Double(days) * 86_400)
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      try FileManager.default.setAttributes(
        [.modificationDate: past], ofItemAtPath: "\(directory)/\(name)")
    }
    try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: directory)
  }
}
