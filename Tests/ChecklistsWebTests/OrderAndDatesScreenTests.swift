import Documents
import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Due dates on the item form and the rows, the visitor's time zone, the
/// list's order (moves, sort, checked last, Reorder) and Check all, through
/// `Application.respond(to:)`.
@Suite struct OrderAndDatesScreenTests {
  /// A visitor with one list, `List` (id 1), holding `texts` in order.
  static func visitor(items texts: [String]) throws -> ApplicationHarness {
    let browser = try ApplicationHarness()
    for text in texts {
      #expect(browser.post("/lists/1/items", [("text", text)]).status == .seeOther)
    }
    return browser
  }

  /// The rows of the list page, in the order shown: (id, text, checked).
  static func rows(_ browser: ApplicationHarness, list: Int = 1) -> [(Int, String, Bool)] {
    let page = browser.text(browser.get("/lists/\(list)"))
    return page.matches(
      of:
        /formaction=\d+\/items\/(\d+)\/toggle aria-pressed=(true|false) name=check value=[01]>([^<]*)</
    ).map { (Int($0.output.1)!, String($0.output.3), $0.output.2 == "true") }
  }

  static func texts(_ browser: ApplicationHarness) -> [String] { rows(browser).map(\.1) }

  static func row(_ page: String, _ text: String) -> Substring? {
    guard let start = page.range(of: ">\(text)</button>") else { return nil }
    let end = page.range(of: "</li>", range: start.upperBound..<page.endIndex)!
    return page[start.upperBound..<end.lowerBound]
  }

  // MARK: Due dates

  @Test func theItemFormSavesADueDateAndRemindMe() throws {
    let browser = try Self.visitor(items: ["milk"])
    let form = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(form.contains(#"<input id="item-due" name="dueDate" type="datetime-local""#))
    #expect(
      form.contains(#"<label for="item-due">"#)
        && form.contains(#"<label for="item-remind">Remind me</label>"#))
    #expect(
      form.contains(#"value="""#) && !form.contains("name=\"shouldRemind\" value=\"on\" checked"))
    let saved = browser.post(
      "/lists/1/items/1",
      [("text", "oat milk"), ("dueDate", "2030-05-12T14:30"), ("shouldRemind", "on")])
    #expect(saved.status == .seeOther)
    #expect(saved.headerFields[.location] == "/lists/1")
    let again = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(again.contains(#"value="2030-05-12T14:30""#))
    #expect(again.contains(#"name="shouldRemind" value="on" checked"#))
    #expect(again.contains("Time zone: UTC"))
    let row = try #require(Self.row(browser.text(browser.get("/lists/1")), "oat milk"))
    #expect(row.contains(#"<time datetime=2030-05-12T14:30Z>12 May 2030</time>"#))
    #expect(!row.contains("Overdue"))
    // Emptied, the due date goes, and so does Remind me when unchecked.
    browser.post("/lists/1/items/1", [("text", "oat milk"), ("dueDate", "")])
    let cleared = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(
      cleared.contains(
        #"type="datetime-local" min="1970-01-01T00:00" max="2999-12-31T23:59" value="""#))
    #expect(!cleared.contains("checked aria-describedby=\"item-remind-help\""))
    #expect(
      !(Self.row(browser.text(browser.get("/lists/1")), "oat milk")?.contains("<time") ?? true))
  }

  @Test(arguments: [
    ("next Tuesday", true), ("2030-02-30T10:00", true), ("2030-05-12T25:00", true),
    ("1969-12-31T23:59", false), ("10000-01-01T00:00", false), ("0999-01-01", false),
  ])
  func aBadDueDateIs400WithTheFormAsTyped(typed: String, malformed: Bool) throws {
    let browser = try Self.visitor(items: ["milk"])
    browser.post("/lists/1/items/1", [("text", "milk"), ("dueDate", "2030-05-12T14:30")])
    let before = browser.storedFiles()
    let refused = browser.post(
      "/lists/1/items/1", [("text", "oat <milk>"), ("dueDate", typed), ("shouldRemind", "on")])
    #expect(refused.status == .badRequest)
    let page = browser.text(refused)
    #expect(page.contains(#"value="oat &lt;milk&gt;""#), "the text as typed")
    #expect(page.contains("value=\"\(typed)\""), "the date as typed")
    #expect(page.contains(#"name="shouldRemind" value="on" checked"#), "the box as sent")
    #expect(page.contains(#"<p class="error" id="form-error" role="alert">"#))
    #expect(page.contains(malformed ? "is not a date and time" : "between the years 1970 and 9999"))
    #expect(page.contains(#"aria-describedby="item-due-help form-error" aria-invalid="true""#))
    // A date field would drop what is not a date: it comes back as text.
    #expect(page.contains(#"name="dueDate" type="text""#) == malformed)
    #expect(browser.storedFiles() == before, "nothing stored")
  }

  @Test func aRefusedTextIsStill422AndKeepsTheDate() throws {
    let browser = try Self.visitor(items: ["milk"])
    let refused = browser.post(
      "/lists/1/items/1", [("text", "   "), ("dueDate", "2030-05-12T14:30")])
    #expect(refused.status == .unprocessableContent)
    let page = browser.text(refused)
    #expect(page.contains("Please type some text."))
    #expect(page.contains(#"value="2030-05-12T14:30""#))
    #expect(page.contains(#"autofocus aria-invalid="true" aria-describedby="form-error""#))
  }

  @Test func anOverdueUncheckedItemSaysSoInWords() throws {
    let browser = try Self.visitor(items: ["late", "done late", "later"])
    browser.post("/lists/1/items/1", [("text", "late"), ("dueDate", "2001-02-03T04:05")])
    browser.post("/lists/1/items/2", [("text", "done late"), ("dueDate", "2001-02-03T04:05")])
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    browser.post("/lists/1/items/3", [("text", "later"), ("dueDate", "2099-02-03T04:05")])
    let page = browser.text(browser.get("/lists/1"))
    #expect(
      Self.row(page, "late")
        == #"<time class=late datetime=2001-02-03T04:05Z>Overdue, 3 Feb 2001</time><a href=1/items/1/edit aria-label="Edit late"></a><button formaction=1/items/1/delete aria-label="Delete late"></button>"#
    )
    #expect(Self.row(page, "done late")?.contains("Overdue") == false)
    #expect(Self.row(page, "done late")?.contains(#"<time datetime=2001-02-03T04:05Z>"#) == true)
    #expect(Self.row(page, "later")?.contains("Overdue") == false)
  }

  @Test func aKeptPageEndsWhenAnItemFallsDue() throws {
    let browser = try Self.visitor(items: ["soon"])
    // A whole minute, 2 to 3 minutes from now; the visitor's next midnight
    // (UTC) ends a dated page too, so in a day's last minutes it comes first.
    let now = Int(Date().timeIntervalSince1970)
    let due = (now / 60 + 3) * 60
    let until = Int64(min(due, (now / 86_400 + 1) * 86_400))
    let wall = WallClockTime(utcSeconds: due).formValue
    browser.post("/lists/1/items/1", [("text", "soon"), ("dueDate", wall)])
    browser.get("/lists/1")  // the browser now holds ChecklistIndex
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
    let request = Request(
      method: .get, path: "/lists/1", headerFields: [.cookie: browser.cookieHeader])
    #expect(!browser.text(browser.application.respond(to: request)).contains("Overdue"))
    let key = try #require(ResponseMemo.Key(request))
    let memo = browser.application.memo
    let dated = try #require(memo.entry(for: key, now: until - 1))
    #expect(memo.entry(for: key, now: until) == nil, "computed again once it is overdue")
    // Without a due date, the page is kept until the visitor cookie is due.
    browser.post("/lists/1/items/1", [("text", "soon"), ("dueDate", "")])
    browser.get("/lists/1")
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
    _ = browser.application.respond(to: request)
    let undated = try #require(memo.entry(for: key))
    #expect(dated.until == min(undated.until, until))
    #expect(undated.until > Int64(Date().timeIntervalSince1970))
  }

  // MARK: The visitor's time zone

  @Test func theBrowsersZoneIsAdoptedAndDatesAreTypedInIt() throws {
    let browser = try Self.visitor(items: ["call"])
    // The script's field, with any change: the zone is kept.
    browser.post("/lists/1/items/1/toggle", [("check", "0"), ("browserTimeZone", "Europe/Berlin")])
    let form = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(form.contains(#"<input type="hidden" name="dueDateZone" value="Europe/Berlin">"#))
    #expect(form.contains("Time zone: Europe/Berlin"))
    let saved = browser.post(
      "/lists/1/items/1",
      [
        ("text", "call"), ("dueDate", "2030-07-01T01:00"), ("dueDateZone", "Europe/Berlin"),
        ("browserTimeZone", "Europe/Berlin"),
      ])
    #expect(saved.status == .seeOther)
    let row = try #require(Self.row(browser.text(browser.get("/lists/1")), "call"))
    #expect(row.contains(#"<time datetime=2030-06-30T23:00Z>1 Jul 2030</time>"#))
    #expect(
      browser.text(browser.get("/lists/1/items/1/edit")).contains(#"value="2030-07-01T01:00""#))
    let settings = browser.text(browser.get("/settings"))
    #expect(settings.contains("<option selected>Europe/Berlin</option>"))
  }

  /// A form shown in one zone and sent from another (a journey): its date
  /// is read in the zone it was shown in, so an unchanged date stays put.
  @Test func aDateIsReadInTheZoneTheFormShowedItIn() throws {
    let browser = try Self.visitor(items: ["call"])
    browser.post("/settings", [("TimeZone", "Europe/Berlin")])
    browser.post(
      "/lists/1/items/1",
      [("text", "call"), ("dueDate", "2030-07-01T01:00"), ("dueDateZone", "Europe/Berlin")])
    let saved = browser.post(
      "/lists/1/items/1",
      [
        ("text", "call me"), ("dueDate", "2030-07-01T01:00"), ("dueDateZone", "Europe/Berlin"),
        ("browserTimeZone", "America/New_York"),
      ])
    #expect(saved.status == .seeOther)
    let row = try #require(Self.row(browser.text(browser.get("/lists/1")), "call me"))
    #expect(row.contains(#"<time datetime=2030-06-30T23:00Z>30 Jun 2030</time>"#))
    let form = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(form.contains(#"value="2030-06-30T19:00""#) && form.contains("America/New_York"))
    // A zone this site does not know: the form again, nothing saved.
    let before = browser.storedFiles()
    let refused = browser.post(
      "/lists/1/items/1",
      [("text", "call"), ("dueDate", "2030-07-01T01:00"), ("dueDateZone", "Mars/Olympus_Mons")])
    #expect(refused.status == .badRequest)
    #expect(browser.text(refused).contains("a time zone this site does not know"))
    #expect(browser.text(refused).contains(#"value="2030-07-01T01:00""#))
    #expect(browser.storedFiles() == before)
  }

  @Test func theZoneIsWrittenOnlyWhenItIsKnownAndNew() throws {
    let browser = try Self.visitor(items: ["a"])
    let preferences = {
      browser.storedFiles().first { $0.key.hasSuffix("Preferences.plist") }?.value
    }
    let first = preferences()
    // The registered default, UTC: nothing to write.
    browser.post("/lists/1/items/1/toggle", [("check", "1"), ("browserTimeZone", "UTC")])
    #expect(preferences() == first)
    // A zone this server does not know is passed over, the change made.
    let unknown = browser.post(
      "/lists/1/items/1/toggle", [("check", "0"), ("browserTimeZone", "Mars/Olympus_Mons")])
    #expect(unknown.status == .seeOther)
    #expect(preferences() == first)
    #expect(Self.rows(browser).first?.2 == false)
    // A new, known one is kept; sent again, it is not written again.
    browser.post("/lists/1/items", [("text", "b"), ("browserTimeZone", "Asia/Tokyo")])
    let tokyo = try #require(preferences())
    #expect(String(decoding: tokyo, as: UTF8.self).contains("<string>Asia/Tokyo</string>"))
    let directory = try #require(
      FileManager.default.enumerator(atPath: browser.data)?.compactMap { $0 as? String }
        .first { $0.hasSuffix("Preferences.plist") })
    let identity =
      try FileManager.default.attributesOfItem(atPath: "\(browser.data)/\(directory)")[
        .systemFileNumber] as? Int
    browser.post("/lists/1/items/1/toggle", [("check", "1"), ("browserTimeZone", "Asia/Tokyo")])
    let after =
      try FileManager.default.attributesOfItem(atPath: "\(browser.data)/\(directory)")[
        .systemFileNumber] as? Int
    #expect(identity == after, "not rewritten")
  }

  @Test func aRefusedChangeDoesNotAdoptTheZone() throws {
    let browser = try Self.visitor(items: ["a"])
    let refused = browser.post(
      "/lists/1/items/1",
      [("text", "a"), ("dueDate", "someday"), ("browserTimeZone", "Asia/Tokyo")])
    #expect(refused.status == .badRequest)
    #expect(browser.text(browser.get("/settings")).contains("<option selected>UTC</option>"))
  }

  @Test func settingsChooseTheZoneAndRefuseAnUnknownOne() throws {
    let browser = try Self.visitor(items: [])
    let page = browser.text(browser.get("/settings"))
    #expect(page.contains(#"<select id="time-zone" name="TimeZone""#))
    #expect(page.contains("<option selected>UTC</option>"))
    #expect(page.contains("<option>America/New_York</option>"))
    #expect(page.contains("<option>Pacific/Auckland</option>"))
    let saved = browser.post(
      "/settings", [("OpenLastList", "on"), ("TimeZone", "America/New_York")])
    #expect(saved.status == .seeOther)
    #expect(
      browser.text(browser.get("/settings")).contains("<option selected>America/New_York</option>"))
    let before = browser.storedFiles()
    for bad in ["Mars/Olympus_Mons", "", "GMT+5", "../../etc/passwd", "Europe/Berlin "] {
      let refused = browser.post(
        "/settings", [("HideCheckedItems", "on"), ("CheckedItemsLast", "on"), ("TimeZone", bad)])
      #expect(refused.status == .badRequest, "\(bad)")
      let text = browser.text(refused)
      #expect(text.contains("is not one this site knows"), "\(bad)")
      #expect(text.contains(#"name="HideCheckedItems" value="on" checked"#), "the form as sent")
      #expect(text.contains(#"name="CheckedItemsLast" value="on" checked"#))
      #expect(text.contains("<option selected>America/New_York</option>"))
    }
    #expect(browser.storedFiles() == before, "nothing saved")
  }

  @Test func resetLeavesTheZoneAndTurnsCheckedItemsLastOff() throws {
    let browser = try Self.visitor(items: [])
    browser.post("/settings", [("CheckedItemsLast", "on"), ("TimeZone", "Europe/Paris")])
    let page = browser.text(browser.get("/settings"))
    #expect(page.contains(#"name="CheckedItemsLast" value="on" checked"#))
    browser.post("/settings/reset")
    let reset = browser.text(browser.get("/settings"))
    #expect(!reset.contains(#"name="CheckedItemsLast" value="on" checked"#))
    #expect(reset.contains("<option selected>Europe/Paris</option>"))
  }

  // MARK: Order

  @Test func aMoveGoesBeforeOrAfterTheNeighbourAndARepeatIsANoOp() throws {
    let browser = try Self.visitor(items: ["a", "b", "c", "d"])
    let down = browser.post("/lists/1/items/1/move", [("after", "2")])
    #expect(down.status == .seeOther && down.headerFields[.location] == "/lists/1")
    #expect(Self.texts(browser) == ["b", "a", "c", "d"])
    browser.post("/lists/1/items/1/move", [("after", "2")])
    #expect(Self.texts(browser) == ["b", "a", "c", "d"], "sent again: already there")
    browser.post("/lists/1/items/4/move", [("before", "2")])
    #expect(Self.texts(browser) == ["d", "b", "a", "c"])
    browser.post("/lists/1/items/4/move", [("before", "2")])
    #expect(Self.texts(browser) == ["d", "b", "a", "c"])
    // Past the ends: the first before itself, the last after itself.
    #expect(browser.post("/lists/1/items/4/move", [("before", "4")]).status == .seeOther)
    #expect(browser.post("/lists/1/items/3/move", [("after", "3")]).status == .seeOther)
    #expect(Self.texts(browser) == ["d", "b", "a", "c"])
  }

  @Test(arguments: [
    [("before", "1"), ("after", "2")], [], [("before", "x")], [("after", "-2")], [("before", "0")],
    [("after", "1e3")], [("before", "99999999999999999999")], [("after", " 2")],
    [("before", "2"), ("from", "elsewhere")],
  ])
  func aMalformedMoveIs400AndChangesNothing(fields: [(String, String)]) throws {
    let browser = try Self.visitor(items: ["a", "b"])
    let before = browser.storedFiles()
    #expect(browser.post("/lists/1/items/1/move", fields).status == .badRequest)
    #expect(browser.storedFiles() == before)
  }

  @Test func aMoveNextToAGoneItemIs404() throws {
    let browser = try Self.visitor(items: ["a", "b"])
    #expect(browser.post("/lists/1/items/1/move", [("after", "99")]).status == .notFound)
    #expect(browser.post("/lists/1/items/99/move", [("after", "1")]).status == .notFound)
    #expect(browser.post("/lists/9/items/1/move", [("after", "2")]).status == .notFound)
    #expect(Self.texts(browser) == ["a", "b"])
  }

  @Test func theReorderScreenHasUpAndDownForEachItem() throws {
    let browser = try Self.visitor(items: ["a", "b", "c"])
    let list = browser.text(browser.get("/lists/1"))
    #expect(list.contains(#"<a href="1/reorder">Reorder</a>"#))
    #expect(list.contains(#"<ul class="rows items">"#))
    let page = browser.text(browser.get("/lists/1/reorder"))
    #expect(page.contains(#"<input type="hidden" name="from" value="reorder">"#))
    #expect(
      page.contains(
        #"<li id="item-1"><span class="row-text">a</span><button class="up" formaction="/lists/1/items/1/move" disabled aria-label="Move a up">Up</button><button class="down" formaction="/lists/1/items/1/move" name="after" value="2" aria-label="Move a down">Down</button></li>"#
      ))
    #expect(
      page.contains(
        #"formaction="/lists/1/items/2/move" name="before" value="1" aria-label="Move b up""#))
    #expect(page.contains(#"formaction="/lists/1/items/3/move" disabled aria-label="Move c down""#))
    let moved = browser.post("/lists/1/items/1/move", [("from", "reorder"), ("after", "2")])
    #expect(moved.headerFields[.location] == "/lists/1/reorder#item-1")
    #expect(Self.texts(browser) == ["b", "a", "c"])
  }

  @Test func sortingByDueDatePutsUndatedItemsLastAndHidesTheMoves() throws {
    let browser = try Self.visitor(items: ["undated", "june", "may"])
    browser.post("/lists/1/items/2", [("text", "june"), ("dueDate", "2030-06-01")])
    browser.post("/lists/1/items/3", [("text", "may"), ("dueDate", "2030-05-01")])
    let own = browser.text(browser.get("/lists/1"))
    #expect(
      own.contains(
        #"<button formaction="1/sort" name="sort" value="dueDate">Sort by due date</button>"#))
    #expect(
      browser.post("/lists/1/sort", [("sort", "dueDate")]).headerFields[.location] == "/lists/1")
    #expect(Self.texts(browser) == ["may", "june", "undated"])
    let sorted = browser.text(browser.get("/lists/1"))
    #expect(
      sorted.contains(
        #"<span>Sorted by due date.</span><button formaction="1/sort" name="sort" value="own">Show my order</button>"#
      ))
    #expect(!sorted.contains("data-move") && !sorted.contains("Reorder</a>"))
    browser.post("/lists/1/sort", [("sort", "own")])
    #expect(Self.texts(browser) == ["undated", "june", "may"])
    for bad in ["", "due", "OWN"] {
      #expect(browser.post("/lists/1/sort", [("sort", bad)]).status == .badRequest)
    }
    #expect(browser.post("/lists/1/sort").status == .badRequest)
    #expect(browser.post("/lists/7/sort", [("sort", "own")]).status == .notFound)
  }

  @Test func checkedItemsLastShowsThemAfterTheOthersAndGroupsTheMoves() throws {
    let browser = try Self.visitor(items: ["a", "b", "c", "d"])
    browser.post("/lists/1/items/1/toggle", [("check", "1")])
    browser.post("/lists/1/items/3/toggle", [("check", "1")])
    #expect(Self.texts(browser) == ["a", "b", "c", "d"])
    browser.post("/settings", [("CheckedItemsLast", "on")])
    #expect(Self.texts(browser) == ["b", "d", "a", "c"])
    #expect(browser.text(browser.get("/lists/1")).contains(#"data-move="grouped""#))
    let reorder = browser.text(browser.get("/lists/1/reorder"))
    // d is the last unchecked item: it cannot go down among the checked ones.
    #expect(
      reorder.contains(#"formaction="/lists/1/items/4/move" disabled aria-label="Move d down""#))
    #expect(
      reorder.contains(#"formaction="/lists/1/items/1/move" disabled aria-label="Move a up""#))
  }

  @Test func checkAllAndUncheckAllAreOneChangeEach() throws {
    let browser = try Self.visitor(items: ["a", "b", "c"])
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains(#"<button formaction="1/check-all">Check all</button>"#))
    #expect(page.contains(#"<button formaction="1/uncheck-all">Uncheck all</button>"#))
    let checked = browser.post("/lists/1/check-all")
    #expect(checked.status == .seeOther && checked.headerFields[.location] == "/lists/1")
    #expect(Self.rows(browser).map(\.2) == [true, true, true])
    #expect(!browser.text(browser.get("/lists/1")).contains(">Check all<"))
    browser.post("/lists/1/check-all")
    #expect(Self.rows(browser).map(\.2) == [true, true, true], "sent again: the same")
    let unchecked = browser.post("/lists/1/uncheck-all")
    #expect(unchecked.status == .seeOther && unchecked.headerFields[.location] == "/lists/1")
    #expect(Self.rows(browser).map(\.2) == [false, false, false])
    #expect(!browser.text(browser.get("/lists/1")).contains(">Uncheck all<"))
    #expect(browser.post("/lists/8/check-all").status == .notFound)
    #expect(browser.post("/lists/8/uncheck-all").status == .notFound)
  }

  @Test func uncheckAllStaysReachableWhenEveryItemIsHidden() throws {
    let browser = try Self.visitor(items: ["a", "b"])
    browser.post("/settings", [("HideCheckedItems", "on")])
    browser.post("/lists/1/check-all")
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains("Every item is checked."))
    #expect(page.contains(#"<button formaction="1/uncheck-all">Uncheck all</button>"#))
    browser.post("/lists/1/uncheck-all")
    #expect(Self.texts(browser) == ["a", "b"])
  }

  @Test func theNewChangesNeedTheToken() throws {
    let browser = try Self.visitor(items: ["a", "b"])
    for (path, fields) in [
      ("/lists/1/items/1/move", [("after", "2")]), ("/lists/1/sort", [("sort", "dueDate")]),
      ("/lists/1/check-all", []), ("/lists/1/uncheck-all", []),
    ] {
      #expect(browser.post(path, fields, withToken: false).status == .forbidden, "\(path)")
    }
    #expect(Self.rows(browser).map(\.1) == ["a", "b"])
  }
}
