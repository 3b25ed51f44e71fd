import Documents
import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// What live updates rest on: an open list page asks for its own address
/// again with the tag it holds, and is answered `304` from the memo until
/// another browser changes what it shows, then `200` with a new tag. And
/// the parts the script puts in place are there, in the same number, in
/// every state of the page.
@Suite struct LiveUpdateTests {
  /// Waits until the last change is old enough for the memo to keep pages.
  private func settle() {
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
  }

  private func poll(_ jar: ApplicationHarness, tag: String) -> Request {
    Request(
      method: .get, path: "/lists/1",
      headerFields: [.cookie: jar.cookieHeader, .ifNoneMatch: tag])
  }

  private func itemIDs(_ page: String) -> [String] {
    page.matches(of: #/items\/(\d+)\/toggle /#).map { String($0.output.1) }
  }

  /// A change from a calendar app trips an open page's poll as another
  /// browser's does: a to-do made by `PUT` and one removed by `DELETE`
  /// each answer the page's next poll with `200` and what changed.
  @Test func aChangeFromACalendarAppShowsAtTheNextPoll() throws {
    let setup = try DAVPropfindTests.Setup()
    let page = setup.owner.get("/lists/1")
    var tag = try #require(page.headerFields[.eTag])
    settle()
    #expect(setup.owner.send(poll(setup.owner, tag: tag)).status == .notModified)

    let made = DAVWriteTests.send(
      setup, .put, "/dav/lists/1/from-app.ics", DAVWriteTests.todo, [.ifNoneMatch: "*"])
    #expect(made.status == .created)
    let afterPut = setup.owner.send(poll(setup.owner, tag: tag))
    #expect(afterPut.status == .ok)
    #expect(setup.owner.text(afterPut).contains("Call the bakery"))
    tag = try #require(afterPut.headerFields[.eTag])
    settle()
    #expect(setup.owner.send(poll(setup.owner, tag: tag)).status == .notModified)

    #expect(DAVWriteTests.send(setup, .delete, "/dav/lists/1/1.ics").status == .noContent)
    let afterDelete = setup.owner.send(poll(setup.owner, tag: tag))
    #expect(afterDelete.status == .ok)
    #expect(!setup.owner.text(afterDelete).contains("Milk"))
    #expect(setup.owner.text(afterDelete).contains("Call the bakery"))
  }

  @Test func aPollIs304FromTheMemoUntilAnotherBrowserChangesTheList() throws {
    let phone = try ApplicationHarness()
    for text in ["milk", "eggs", "bread"] { phone.post("/lists/1/items", [("text", text)]) }
    phone.post("/lists", [("name", "Other"), ("icon", "folder")])
    // The same visitor's second browser: the visitor cookie, nothing else.
    let laptop = phone.anotherCookieJar(["visitor": try #require(phone.cookies["visitor"])])
    let first = laptop.get("/lists/1")
    let ids = itemIDs(laptop.text(first))
    #expect(ids.count == 3)
    var tag = try #require(first.headerFields[.eTag])
    var seen: Set<String> = [tag]
    settle()

    // Unchanged: the same tag, answered from the kept page after one stat.
    for _ in 0..<3 {
      let answer = laptop.send(poll(laptop, tag: tag))
      #expect(answer.status == .notModified && answer.body.isEmpty)
      #expect(answer.headerFields[.eTag] == tag)
    }
    let key = try #require(ResponseMemo.Key(poll(laptop, tag: tag)))
    let kept = try #require(laptop.application.memo.entry(for: key))
    #expect(kept.etag.value == tag && kept.answers(poll(laptop, tag: tag)))

    // Other pages seen and another list renamed: this page is the same.
    phone.get("/lists")
    phone.get("/settings")
    phone.post("/lists/2", [("name", "Renamed"), ("icon", "folder")])
    #expect(laptop.send(poll(laptop, tag: tag)).status == .notModified)
    // An item added to another list moves the add form's nonce (the
    // model's next item id), and nothing else on this page.
    phone.post("/lists/2/items", [("text", "elsewhere")])
    let moved = laptop.send(poll(laptop, tag: tag))
    #expect(moved.status == .ok)
    let nonce = /name="nonce" value="\d+"/
    #expect(
      laptop.text(moved).replacing(nonce, with: "") == laptop.text(first).replacing(nonce, with: "")
    )
    tag = try #require(moved.headerFields[.eTag])
    seen.insert(tag)
    settle()

    // Every change of what the page shows, made by the other browser, gives
    // a tag never seen before; the new tag is then answered 304.
    let changes: [(String, [(String, String)])] = [
      ("/lists/1/items", [("text", "butter")]),
      ("/lists/1/items/\(ids[0])/toggle", [("check", "1")]),
      ("/lists/1/items/\(ids[1])", [("text", "free-range eggs"), ("dueDate", "")]),
      ("/lists/1/items/\(ids[2])/move", [("before", ids[0])]),
      ("/lists/1/sort", [("sort", "dueDate")]),
      ("/lists/1/items/\(ids[1])/delete", []),
      ("/lists/1/check-all", []),
      ("/lists/1", [("name", "Groceries"), ("icon", "groceries")]),
    ]
    for (path, fields) in changes {
      #expect(phone.post(path, fields).status == .seeOther, "\(path)")
      let answer = laptop.send(poll(laptop, tag: tag))
      #expect(answer.status == .ok, "\(path)")
      let newTag = try #require(answer.headerFields[.eTag])
      #expect(!seen.contains(newTag), "\(path)")
      seen.insert(newTag)
      tag = newTag
      settle()
      #expect(laptop.send(poll(laptop, tag: tag)).status == .notModified, "\(path)")
    }
    #expect(laptop.text(laptop.get("/lists/1")).contains("Groceries"))
  }

  /// The script swaps marked parts one for one, so each state of the page
  /// has the same three: the heading, the rows (or the empty message and
  /// the hidden summary), the add form's nonce. The undo notice and the
  /// text field a visitor types in lie outside them.
  @Test func everyStateOfAListPageHasTheSameMarkedParts() throws {
    let browser = try ApplicationHarness()
    func marked(_ target: String) -> String {
      let page = browser.text(browser.get(target))
      #expect(page.matches(of: /data-live/).count == 3, "\(target)")
      let rows = page.range(of: "<div data-live>")
      let end = page.range(of: "</div>\n<form class=\"add-item\"")
      #expect(rows != nil && end != nil, "\(target)")
      if let rows, let end {
        #expect(page.range(of: "undo-notice", range: rows.lowerBound..<end.upperBound) == nil)
        #expect(page.range(of: "name=\"text\"", range: end.upperBound..<page.endIndex) != nil)
      }
      return page
    }
    _ = marked("/lists/1")  // the first-run list, empty
    browser.post("/lists/1/items", [("text", "milk")])
    let page = marked("/lists/1")
    let milk = try #require(itemIDs(page).first)
    browser.post("/lists/1/items/\(milk)/toggle", [("check", "1")])
    browser.post("/settings", [("HideCheckedItems", "on")])
    #expect(marked("/lists/1").contains("Every item is checked."))
    let deleted = browser.post("/lists/1/items/\(milk)/delete")
    let location = try #require(deleted.headerFields[.location])
    #expect(marked(location).contains("undo-notice"))
  }
}
