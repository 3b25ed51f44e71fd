import Documents
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

extension ResponseMemo {
  /// The kept answer for `key` now.
  func entry(for key: Key) -> Entry? { entry(for: key, now: Int64(Date().timeIntervalSince1970)) }
}

/// A kept answer is the answer: the same bytes and headers as computing it
/// again, cookies included; never one that sends the visitor's own cookie,
/// never one from before a change.
@Suite struct ResponseMemoTests {
  /// Waits until the last change is old enough for its time to be trusted.
  private func settle() {
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
  }

  /// The same page from `browser`'s application (kept after the first
  /// time) and from `fresh`, another one on the same data (computed).
  private func keptAndComputed(
    _ browser: ApplicationHarness, _ fresh: ApplicationHarness, _ request: Request
  ) -> (kept: Response, computed: Response) {
    browser.application.respond(to: request)
    let kept = browser.application.respond(to: request)
    let computed = fresh.application.respond(to: request)
    return (kept, computed)
  }

  @Test func aKeptPageIsExactlyTheComputedOne() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")  // the browser now holds ChecklistIndex
    let fresh = try browser.anotherBrowser()
    settle()
    for path in ["/lists/1", "/lists"] {
      browser.get(path)
      let request = Request(method: .get, path: path, headerFields: [.cookie: browser.cookieHeader])
      let (kept, computed) = keptAndComputed(browser, fresh, request)
      #expect(kept.status == .ok && browser.text(kept).contains("milk") || path == "/lists")
      #expect(kept == computed, "\(path)")
      let key = try #require(ResponseMemo.Key(request))
      #expect(browser.application.memo.entry(for: key)?.response == kept, "kept: \(path)")
      #expect(fresh.application.memo.entry(for: key)?.response == computed, "\(path)")
      let head = Request(method: .head, path: path, headerFields: [.cookie: browser.cookieHeader])
      #expect(keptAndComputed(browser, fresh, head).kept == computed)
    }
  }

  @Test func revalidationIsTheSame304KeptOrComputed() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    let etag = try #require(browser.get("/lists/1").headerFields[.eTag])
    let request = Request(
      method: .get, path: "/lists/1",
      headerFields: [.cookie: browser.cookieHeader, .ifNoneMatch: etag])
    let fresh = try browser.anotherBrowser()
    let (kept, computed) = keptAndComputed(browser, fresh, request)
    #expect(kept.status == .notModified && kept.body.isEmpty)
    #expect(kept == computed)
    // A first request that revalidates still leaves the whole page kept.
    let plain = Request(
      method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    #expect(browser.application.respond(to: plain).status == .ok)
  }

  /// Opening a list moves `ChecklistIndex`: that answer is kept with its
  /// cookie, and a kept `GET`, `HEAD` or `304` sets it exactly as a
  /// computed one does.
  @Test func anAnswerThatMovesChecklistIndexIsKeptWithItsCookie() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists", [("name", "Second")])
    let fresh = try browser.anotherBrowser()
    settle()
    let visitor = try #require(browser.cookies["visitor"])
    let fromAnotherList = "visitor=\(visitor); ChecklistIndex=-1"
    let get = Request(method: .get, path: "/lists/2", headerFields: [.cookie: fromAnotherList])
    let (kept, computed) = keptAndComputed(browser, fresh, get)
    #expect(kept.status == .ok && kept.setCookies.contains { $0.hasPrefix("ChecklistIndex=") })
    #expect(kept == computed)
    let key = try #require(ResponseMemo.Key(get))
    #expect(browser.application.memo.entry(for: key)?.response == kept)
    let head = Request(method: .head, path: "/lists/2", headerFields: [.cookie: fromAnotherList])
    #expect(keptAndComputed(browser, fresh, head).kept == computed)
    let tag = try #require(kept.headerFields[.eTag])
    let revalidation = Request(
      method: .get, path: "/lists/2", headerFields: [.cookie: fromAnotherList, .ifNoneMatch: tag])
    let (kept304, computed304) = keptAndComputed(browser, fresh, revalidation)
    #expect(kept304.status == .notModified && kept304.setCookies == kept.setCookies)
    #expect(kept304 == computed304)
  }

  /// An answer that sends the visitor's own cookie (a renewal: this one
  /// carries no day) is computed every time: a kept one would renew it
  /// for ever with the day it was kept on.
  @Test func anAnswerThatSendsTheVisitorCookieIsNeverKept() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists", [("name", "Second")])
    settle()
    let id = try #require(browser.cookies["visitor"]?.split(separator: ".").first)
    let undated = "visitor=\(id); ChecklistIndex=1"
    let get = Request(method: .get, path: "/lists/2", headerFields: [.cookie: undated])
    for _ in 0..<3 {
      let response = browser.application.respond(to: get)
      #expect(response.setCookies.contains { $0.hasPrefix("visitor=") })
    }
    #expect(browser.application.memo.entry(for: try #require(ResponseMemo.Key(get))) == nil)
  }

  @Test func aPageWithAQueryOrWithoutAVisitorIsComputedEachTime() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    let cookie = browser.cookieHeader
    let memoKey = ResponseMemo.Key(
      Request(method: .get, path: "/lists/1", query: "x=1", headerFields: [.cookie: cookie]))
    #expect(memoKey == nil)
    #expect(ResponseMemo.Key(Request(method: .get, path: "/lists/1")) == nil)
    #expect(
      ResponseMemo.Key(Request(method: .post, path: "/lists/1", headerFields: [.cookie: cookie]))
        == nil)
    for _ in 0..<2 {
      let stranger = browser.application.respond(to: Request(method: .get, path: "/lists/1"))
      #expect(stranger.setCookies.contains { $0.hasPrefix("visitor=") })
      #expect(!browser.text(stranger).contains("milk"))
    }
  }

  @Test func aChangeMadeWhileThePageWasKeptIsShownAtOnce() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")
    let key = try #require(
      ResponseMemo.Key(
        Request(method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])))
    settle()
    browser.get("/lists/1")
    #expect(browser.application.memo.entry(for: key) != nil, "kept")
    let otherProcess = try browser.anotherBrowser()
    otherProcess.cookies = browser.cookies
    otherProcess.post("/lists/1/items", [("text", "bread")])
    #expect(browser.text(browser.get("/lists/1")).contains("bread"))
    settle()
    browser.get("/lists/1")
    #expect(browser.application.memo.entry(for: key) != nil, "kept again")
    otherProcess.post("/settings", [("HideCheckedItems", "on"), ("OpenLastList", "on")])
    otherProcess.post("/lists/1/items/1/toggle")
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains("bread") && !page.contains(">milk<"))
  }

  /// A page computed within moments of a change is not kept (a later change
  /// in the same tick of the file system's clock could not be told apart);
  /// once the change has settled, it is.
  @Test func aPageRightAfterAChangeIsKeptOnlyOnceTheChangeHasSettled() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")
    let request = Request(
      method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    let key = try #require(ResponseMemo.Key(request))
    browser.post("/lists/1/items", [("text", "bread")])
    browser.application.respond(to: request)
    #expect(browser.application.memo.entry(for: key) == nil)
    settle()
    browser.application.respond(to: request)
    let kept = try #require(browser.application.memo.entry(for: key))
    #expect(browser.text(kept.response).contains("bread"))
  }

  /// A page over the size kept whole is kept without its body: a `HEAD`
  /// and a revalidation are answered from its headers and tag, exactly as
  /// computing them would, and a `GET` is computed.
  @Test func aLargePageIsKeptWithoutItsBodyForHEADAndRevalidation() throws {
    let browser = try ApplicationHarness()
    let token = browser.csrf()
    for number in 0..<40 {
      let text = String(repeating: "\"", count: 200) + " \(number)"
      #expect(browser.post("/lists/1/items", [("text", text)], token: token).status == .seeOther)
    }
    browser.get("/lists/1")
    settle()
    let fresh = try browser.anotherBrowser()
    let get = Request(method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    let page = browser.application.respond(to: get)
    #expect(page.status == .ok && page.body.count > ResponseMemo.maximumBodyBytes)
    let key = try #require(ResponseMemo.Key(get))
    let entry = try #require(browser.application.memo.entry(for: key))
    #expect(!entry.hasBody && entry.response.body.isEmpty)
    #expect(entry.response.headerFields[.contentLength] == String(page.body.count))

    let head = Request(
      method: .head, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    #expect(entry.answers(head) && !entry.answers(get))
    let keptHead = browser.application.respond(to: head)
    #expect(keptHead.body.isEmpty)
    #expect(keptHead.encodedHead() == fresh.application.respond(to: head).encodedHead())
    #expect(browser.application.respond(to: get) == page, "a GET is computed whole")

    let etag = try #require(page.headerFields[.eTag])
    var revalidation = get
    revalidation.head.headerFields[.ifNoneMatch] = etag
    #expect(entry.answers(revalidation))
    let kept304 = browser.application.respond(to: revalidation)
    #expect(
      kept304.status == .notModified && kept304 == fresh.application.respond(to: revalidation))
  }

  /// A page with an item due soon turns it overdue by itself: the memo
  /// keeps that page no longer than the due date, so the next view after it
  /// is computed again.
  @Test func aPageIsKeptNoLongerThanTheNextDueDate() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.post("/lists/1/items", [("text", "eggs")])
    let id = String(try #require(browser.cookies["visitor"]).prefix(32))
    let visitor = VisitorDirectory(dataDirectory: browser.data, visitorID: id)
    // A minute from now: before the visitor's next midnight (UTC), which
    // also ends a kept page (its "Today" and "Tomorrow"), on all but the
    // day's last minute, when that midnight is what ends it.
    let now = Date().timeIntervalSince1970.rounded(.down)
    let due = now + 60
    let midnight = ((now / 86_400).rounded(.down) + 1) * 86_400
    let until = Int64(min(due, midnight))
    try browser.application.store.update(
      visitor, initial: { $0! },
      { model in
        let list = model.lists[0]
        for (offset, item) in list.items.enumerated() {
          try model.editItem(
            id: item.id, inList: list.id, text: item.text,
            dueDate: Date(timeIntervalSince1970: due + Double(offset) * 60), shouldRemind: false)
        }
      })
    settle()
    let request = Request(
      method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    browser.application.respond(to: request)
    let key = try #require(ResponseMemo.Key(request))
    let kept = try #require(browser.application.memo.entry(for: key))
    #expect(kept.until == until)
    #expect(browser.application.memo.entry(for: key, now: until) == nil)
    #expect(browser.application.memo.entry(for: key, now: until - 1) != nil)
  }
}
