import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Undo, Recently Deleted and Remove checked items, through
/// `Application.respond(to:)` as a browser without JavaScript uses them.
@Suite struct UndoTests {
  // MARK: Helpers

  func visitor(_ browser: ApplicationHarness) throws -> VisitorDirectory {
    VisitorDirectory(
      dataDirectory: browser.data,
      visitorID: String(try #require(browser.cookies["visitor"]).prefix(32)))
  }

  /// The visitor's stored model, as the next request reads it.
  func stored(_ browser: ApplicationHarness) throws -> DataModel {
    try #require(try browser.application.store.load(try visitor(browser)))
  }

  /// Changes the stored model behind the application's back (what no form
  /// sends: a due date, a deletion made long ago).
  func change(_ browser: ApplicationHarness, _ body: (inout DataModel) throws -> Void) throws {
    try browser.application.store.update(try visitor(browser), initial: { $0 ?? DataModel() }, body)
  }

  /// The 303's target, which must be one of ours.
  func location(_ response: Response) throws -> String {
    #expect(response.status == .seeOther, "\(response.status)")
    return try #require(response.headerFields[.location])
  }

  /// The number an address ends with: the id in `?deleted=ID`,
  /// `?removed=ID` or `/lists/ID`.
  func lastNumber(_ location: String) throws -> Int {
    let digits = try #require(location.split(whereSeparator: { !$0.isNumber }).last)
    return try #require(Int(digits))
  }

  /// The items of list 1 as the page shows them: id, checked, text.
  func rows(_ browser: ApplicationHarness, list: Int = 1) -> [String] {
    let page = browser.text(browser.get("/lists/\(list)"))
    return page.matches(of: /items\/(\d+)\/toggle aria-pressed=(true|false)[^>]*>([^<]*)</).map {
      "\($0.1) \($0.2) \($0.3)"
    }
  }

  /// A browser whose list 1 has items a, b, c, d (ids 1…4), b checked and
  /// with a due date and Remind me.
  func browserWithItems() throws -> ApplicationHarness {
    let browser = try ApplicationHarness()
    for text in ["a", "b", "c", "d"] { browser.post("/lists/1/items", [("text", text)]) }
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    try change(browser) { model in
      try model.editItem(
        id: 2, inList: 1, text: "b", dueDate: Date(timeIntervalSince1970: 1_900_000_000),
        shouldRemind: true)
    }
    return browser
  }

  // MARK: Undo

  @Test func deletingAnItemOffersUndoWhichRestoresItExactly() throws {
    let browser = try browserWithItems()
    let before = try stored(browser)
    let rowsBefore = rows(browser)

    let target = try location(browser.post("/lists/1/items/2/delete"))
    #expect(target.hasPrefix("/lists/1?deleted="))
    let deletion = try lastNumber(target)
    let page = browser.text(browser.get(target))
    #expect(page.contains("Deleted “b”."))
    #expect(
      page.contains(#"<form class="undo" method="post" action="/deleted/\#(deletion)/restore">"#))
    #expect(page.contains(#"<button type="submit" class="primary">Undo</button>"#))
    #expect(rows(browser) == rowsBefore.filter { !$0.hasPrefix("2 ") })
    #expect(!browser.text(browser.get("/lists/1")).contains("undo-notice"), "no query, no notice")

    let undone = try location(browser.post("/deleted/\(deletion)/restore"))
    #expect(undone == "/lists/1?restored=1")
    #expect(browser.text(browser.get(undone)).contains("Restored 1 item."))
    let after = try stored(browser)
    #expect(after.lists == before.lists, "ids, order, checkmark, due date and Remind me")
    #expect(after.nextItemID == before.nextItemID)
    #expect(after.deletions.isEmpty)
    #expect(rows(browser) == rowsBefore)
    // The deletion has gone from Recently Deleted, so its address offers nothing.
    #expect(!browser.text(browser.get(target)).contains("undo-notice"))
  }

  @Test func aSecondUndoChangesNothingAndSaysSo() throws {
    let browser = try browserWithItems()
    let deletion = try lastNumber(try location(browser.post("/lists/1/items/3/delete")))
    #expect(browser.post("/deleted/\(deletion)/restore").status == .seeOther)
    let files = browser.storedFiles()
    let again = try location(browser.post("/deleted/\(deletion)/restore"))
    #expect(again == "/deleted?nothing-to-restore")
    #expect(browser.storedFiles() == files, "nothing written")
    let page = browser.get(again)
    #expect(page.status == .ok)
    #expect(browser.text(page).contains("Nothing to restore: that was restored already"))
    #expect(!browser.text(browser.get("/deleted")).contains("Nothing to restore"))
  }

  @Test func deletingAListOffersUndoOnAllListsAndUndoGivesItsIdBack() throws {
    let browser = try ApplicationHarness()
    let list = try lastNumber(
      try location(browser.post("/lists", [("name", "Groceries"), ("icon", "groceries")])))
    for text in ["milk", "eggs", "bread"] { browser.post("/lists/\(list)/items", [("text", text)]) }
    let before = try stored(browser)
    let rowsBefore = rows(browser, list: list)

    let target = try location(browser.post("/lists/\(list)/delete"))
    #expect(target.hasPrefix("/lists?deleted="))
    let page = browser.text(browser.get(target))
    #expect(page.contains("Deleted the list “Groceries”."))
    #expect(page.contains(#"href="/deleted">Recently Deleted</a>"#))
    #expect(!page.contains(#"href="/lists/\#(list)""#))
    #expect(browser.get("/lists/\(list)").status == .notFound)

    let undone = try location(browser.post("/deleted/\(try lastNumber(target))/restore"))
    #expect(undone == "/lists/\(list)?restored=list")
    let restored = browser.get(undone)
    #expect(restored.status == .ok && browser.text(restored).contains("List restored."))
    #expect(try stored(browser).lists == before.lists)
    #expect(rows(browser, list: list) == rowsBefore)
  }

  @Test func removeCheckedItemsOffersUndoWhichPutsThemBackInPlace() throws {
    let browser = try browserWithItems()
    browser.post("/lists/1/items/4/toggle", [("check", "1")])
    #expect(browser.text(browser.get("/lists/1")).contains(#"formaction="1/remove-checked""#))
    let before = try stored(browser)
    let rowsBefore = rows(browser)

    let target = try location(browser.post("/lists/1/remove-checked"))
    #expect(target.hasPrefix("/lists/1?removed="))
    #expect(browser.text(browser.get(target)).contains("Removed 2 checked items."))
    #expect(rows(browser) == ["1 false a", "3 false c"])
    #expect(
      !browser.text(browser.get("/lists/1")).contains("remove-checked"),
      "nothing checked, no button")

    // Sent again (nothing is checked now): nothing changes, no Undo offered.
    let files = browser.storedFiles()
    #expect(try location(browser.post("/lists/1/remove-checked")) == "/lists/1")
    #expect(browser.storedFiles() == files)

    let undone = try location(browser.post("/deleted/\(try lastNumber(target))/restore"))
    #expect(undone == "/lists/1?restored=2")
    #expect(browser.text(browser.get(undone)).contains("Restored 2 items."))
    #expect(try stored(browser).lists == before.lists)
    #expect(rows(browser) == rowsBefore)
  }

  @Test func removeCheckedCountsTheItemsTheSettingHides() throws {
    let browser = try browserWithItems()
    browser.post("/settings", [("HideCheckedItems", "on")])
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains("1 checked item hidden") && page.contains("remove-checked"))
    let target = try location(browser.post("/lists/1/remove-checked"))
    #expect(browser.text(browser.get(target)).contains("Removed 1 checked item."))
  }

  @Test func aDeleteSentTwiceIsAnsweredLikeTheFirst() throws {
    let browser = try browserWithItems()
    let first = try location(browser.post("/lists/1/items/3/delete"))
    let files = browser.storedFiles()
    #expect(try location(browser.post("/lists/1/items/3/delete")) == first)
    #expect(browser.storedFiles() == files)
    #expect(browser.post("/lists/1/items/99/delete").status == .notFound)
    #expect(browser.post("/lists/7/items/3/delete").status == .notFound)

    let list = try location(browser.post("/lists/1/delete"))
    #expect(try location(browser.post("/lists/1/delete")) == list)
    #expect(browser.post("/lists/99/delete").status == .notFound)
  }

  @Test func theNoticeShowsOnlyOnItsOwnPage() throws {
    let browser = try browserWithItems()
    let other = try lastNumber(try location(browser.post("/lists", [("name", "Other")])))
    let item = try lastNumber(try location(browser.post("/lists/1/items/1/delete")))
    let list = try lastNumber(try location(browser.post("/lists/\(other)/delete")))
    for address in [
      "/lists?deleted=\(item)", "/lists/1?deleted=\(list)", "/lists/1?deleted=99",
      "/lists/1?deleted=abc", "/lists/1?deleted=", "/lists/1?restored=x", "/lists?restored=list",
      "/lists/1?removed=0",
    ] {
      let page = browser.get(address)
      #expect(page.status == .ok, "\(address)")
      #expect(!browser.text(page).contains("undo-notice"), "\(address)")
    }
    #expect(browser.text(browser.get("/lists/1?x=1&deleted=\(item)")).contains("Deleted “a”."))
  }

  // MARK: Recently Deleted

  @Test func recentlyDeletedListsWhatWentNewestFirstAndRestoresIt() throws {
    let browser = try browserWithItems()
    let empty = browser.get("/deleted")
    #expect(empty.status == .ok)
    #expect(browser.text(empty).contains("Nothing deleted in the last 30 days."))
    #expect(
      browser.text(browser.get("/lists")).contains(#"<a href="/deleted">Recently Deleted</a>"#))

    browser.post("/lists/1/items/1/delete")
    browser.post("/lists/1/items/4/toggle", [("check", "1")])
    browser.post("/lists/1/remove-checked")
    let list = try lastNumber(try location(browser.post("/lists", [("name", "Trip")])))
    browser.post("/lists/\(list)/items", [("text", "passport")])
    browser.post("/lists/\(list)/delete")

    let page = browser.text(browser.get("/deleted"))
    let trip = try #require(page.range(of: #"<span class="row-title">Trip</span>"#)).lowerBound
    let checked = try #require(page.range(of: #"<span class="row-title">b, d</span>"#)).lowerBound
    let first = try #require(page.range(of: #"<span class="row-title">a</span>"#)).lowerBound
    #expect(trip < checked && checked < first, "newest first")
    #expect(page.contains("List with 1 item · deleted <time datetime=\""))
    #expect(page.contains("2 items from “List”"))
    #expect(page.contains("Item from “List”"))
    #expect(page.contains(">just now</time>"))
    #expect(page.components(separatedBy: "<form class=\"restore\"").count == 4)
    #expect(page.contains(#"Restore<span class="visually-hidden"> b, d</span>"#))

    let entry = try #require(try stored(browser).deletions.first { $0.items.count == 2 })
    #expect(
      try location(browser.post("/deleted/\(entry.id)/restore")) == "/lists/1?restored=2")
    #expect(rows(browser) == ["2 true b", "3 false c", "4 true d"])
    #expect(!browser.text(browser.get("/deleted")).contains(">b, d<"))
  }

  @Test func itemsOfAListDeletedSinceWaitForTheList() throws {
    let browser = try browserWithItems()
    let item = try lastNumber(try location(browser.post("/lists/1/items/3/delete")))
    let list = try lastNumber(try location(browser.post("/lists/1/delete")))
    let page = browser.text(browser.get("/deleted"))
    #expect(page.contains("Its list “List” was deleted too: restore the list first."))

    let files = browser.storedFiles()
    let refused = browser.post("/deleted/\(item)/restore")
    #expect(refused.status == .conflict)
    let text = browser.text(refused)
    #expect(text.contains("Restore that list first") && text.contains(#"href="/deleted""#))
    #expect(browser.storedFiles() == files)

    #expect(try location(browser.post("/deleted/\(list)/restore")) == "/lists/1?restored=list")
    #expect(try location(browser.post("/deleted/\(item)/restore")) == "/lists/1?restored=1")
    #expect(rows(browser) == ["1 false a", "2 true b", "3 false c", "4 false d"])
  }

  @Test func aRestoreBeyondTheLimitsIsRefusedWithTheReason() throws {
    let browser = try browserWithItems()
    let deletion = try lastNumber(try location(browser.post("/lists/1/delete")))
    try change(browser) { model in
      for number in 0..<Limits.maximumLists { try model.addList(name: "L\(number)", icon: .none) }
    }
    let files = browser.storedFiles()
    let refused = browser.post("/deleted/\(deletion)/restore")
    #expect(refused.status == .unprocessableContent)
    let text = browser.text(refused)
    #expect(text.contains("You already have 500 lists") && text.contains(#"href="/deleted""#))
    #expect(browser.storedFiles() == files)
  }

  @Test func aRenamedListIsNamedAsItIsNow() throws {
    let browser = try browserWithItems()
    browser.post("/lists/1/items/1/delete")
    browser.post("/lists/1", [("name", "Errands"), ("icon", "chores")])
    #expect(browser.text(browser.get("/deleted")).contains("Item from “Errands”"))
  }

  @Test func unknownOrMalformedDeletionsAre404AndChangeNothing() throws {
    let browser = try browserWithItems()
    let deletion = try lastNumber(try location(browser.post("/lists/1/items/1/delete")))
    let files = browser.storedFiles()
    for path in [
      "/deleted/\(deletion + 1)/restore", "/deleted/99999/restore", "/deleted/abc/restore",
      "/deleted/0/restore", "/deleted/-1/restore", "/deleted/1e3/restore",
      "/deleted/99999999999999999999/restore",
    ] {
      let response = browser.post(path)
      #expect(response.status == .notFound, "\(path)")
      #expect(browser.text(response).contains("<h1>"), "\(path): a page")
    }
    #expect(browser.get("/deleted/\(deletion)/restore").status == .methodNotAllowed)
    #expect(browser.storedFiles() == files)
    #expect(
      browser.text(browser.get("/deleted")).contains(#"action="/deleted/\#(deletion)/restore""#))
  }

  @Test func aRestoreWithoutTheRightTokenIsRefused() throws {
    let browser = try browserWithItems()
    let deletion = try lastNumber(try location(browser.post("/lists/1/items/1/delete")))
    let files = browser.storedFiles()
    #expect(browser.post("/deleted/\(deletion)/restore", withToken: false).status == .forbidden)
    #expect(
      browser.post("/deleted/\(deletion)/restore", token: String(repeating: "0", count: 64)).status
        == .forbidden)
    #expect(
      browser.post(
        "/deleted/\(deletion)/restore", authority: "127.0.0.1",
        headerFields: [.origin: "https://evil.example"]
      ).status == .forbidden)
    #expect(browser.post("/lists/1/remove-checked", withToken: false).status == .forbidden)
    #expect(browser.storedFiles() == files)
  }

  // MARK: Purge

  @Test func anOldDeletionIsShownNoMoreAndGoesWithTheNextChange() throws {
    let browser = try browserWithItems()
    let recent = try lastNumber(try location(browser.post("/lists/1/items/3/delete")))
    let old = Date().addingTimeInterval(-DataModel.deletionsKeptFor - 60)
    var oldID = 0
    try change(browser) { model in oldID = try model.deleteItem(id: 1, inList: 1, at: old) }

    // Older than 30 days: no longer shown, nor restored, though still stored.
    let page = browser.text(browser.get("/deleted"))
    #expect(!page.contains(#"action="/deleted/\#(oldID)/restore""#))
    #expect(page.contains(#"action="/deleted/\#(recent)/restore""#))
    #expect(!browser.text(browser.get("/lists/1?deleted=\(oldID)")).contains("undo-notice"))
    #expect(try stored(browser).deletion(id: oldID) != nil, "a GET writes nothing")

    // An unrelated change purges it; the recent one stays.
    browser.post("/lists/1/items", [("text", "e")])
    let model = try stored(browser)
    #expect(model.deletion(id: oldID) == nil)
    #expect(model.deletion(id: recent) != nil)
    #expect(
      try location(browser.post("/deleted/\(oldID)/restore")) == "/deleted?nothing-to-restore")
  }

  // MARK: Pieces

  @Test func theQueryNamesTheNotice() {
    #expect(UndoNotice.subject(query: "deleted=12") == .deletion(id: 12, removedChecked: false))
    #expect(UndoNotice.subject(query: "removed=3") == .deletion(id: 3, removedChecked: true))
    #expect(UndoNotice.subject(query: "restored=list") == .restoredList)
    #expect(UndoNotice.subject(query: "restored=4") == .restoredItems(count: 4))
    for query in ["", "deleted", "deleted=", "deleted=0", "deleted=01", "deleted=-1", "x=1"] {
      #expect(UndoNotice.subject(query: query) == nil, "\(query)")
    }
  }

  @Test func relativeTimes() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let cases: [(TimeInterval, String)] = [
      (0, "just now"), (59, "just now"), (60, "1 minute ago"), (3_599, "59 minutes ago"),
      (3_600, "1 hour ago"), (86_399, "23 hours ago"), (86_400, "1 day ago"),
      (29 * 86_400, "29 days ago"), (-5, "just now"),
    ]
    for (ago, text) in cases {
      #expect(RecentlyDeletedScreen.relativeTime(now - ago, now: now) == text, "\(ago)")
    }
  }
}
