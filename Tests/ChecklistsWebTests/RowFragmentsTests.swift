import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import Logging
import Storage
import TestSupport
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The Checklist page's rows, rendered once and kept (`RowFragments`): the
/// page they make is the page the `item-row` partial makes inside the
/// list's section, a row is rendered again when anything it shows changes
/// (its item, the language, the zone of a date) and when its words stop
/// being right by themselves ("Tomorrow" at midnight, "Overdue" at the due
/// date), and no owner is given another's rows.
@Suite struct RowFragmentsTests {
  typealias TestClock = ScheduledResetScreenTests.TestClock

  /// A list of every kind of row: plain, checked, due tomorrow, overdue,
  /// with a note, repeating weekly and checked once (moved on, last done).
  static func variedList(_ browser: ApplicationHarness) {
    for text in ["milk", "bread & butter", "call <Anna>", "water the plants", "tax return"] {
      #expect(browser.post("/lists/1/items", [("text", text)]).status == .seeOther)
    }
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    browser.post(
      "/lists/1/items/3",
      [("text", "call <Anna>"), ("dueDate", "2026-11-30T09:00"), ("notes", "about\nthe trip")])
    browser.post("/lists/1/items/5", [("text", "tax return"), ("dueDate", "2026-11-29T08:00")])
    browser.post(
      "/lists/1/items/4",
      [
        ("text", "water the plants"), ("dueDate", "2026-11-30T07:00"), ("repeat", "weekly"),
        ("interval", "1"), ("weekday", "MO"), ("monthDay", ""),
      ])
    browser.post("/lists/1/items/4/toggle", [("check", "1")])
  }

  /// The rows' part of the page, `<ul class="rows items">` to `</ul>`.
  static func rows(_ page: String) throws -> Substring {
    let start = try #require(page.range(of: #"<ul class="rows items""#))
    let end = try #require(page.range(of: "</ul>", range: start.upperBound..<page.endIndex))
    return page[start.lowerBound..<end.upperBound]
  }

  @Test func keptRowsMakeThePageThePartialMakesInTheSection() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try ApplicationHarness { $0.clock = { clock.now } }
    Self.variedList(browser)
    let first = browser.text(browser.get("/lists/1"))
    // A query string is never answered from the response memo: the page is
    // computed again, its rows found kept.
    let again = browser.text(browser.get("/lists/1?from=test"))
    #expect(first == again)
    // With no row kept (`--row-cache-size 0`), the same page.
    let unkept = try ApplicationHarness(directory: browser.directory) {
      $0.clock = { clock.now }
      $0.rowCacheBudget = 0
    }
    unkept.cookies = browser.cookies
    #expect(unkept.text(unkept.get("/lists/1?from=test")) == first)
    #expect(first.contains("Repeats weekly") && first.contains("Last done 29 Nov"))
    #expect(first.contains("Overdue, ") && first.contains("Tomorrow 09:00"))
    #expect(first.contains("call &lt;Anna&gt;") && first.contains("about\nthe trip"))

    // What the item-row partial renders inside the list's section, from
    // the same rows worded by ChecklistPage.
    let store = ChecklistStore(
      configuration: .init(dataDirectory: browser.data, durable: false),
      logger: Logger(label: "test"))
    let visitor = try #require(browser.cookies.first { $0.key.hasSuffix("visitor") }?.value)
    let model = try #require(
      try store.load(
        VisitorDirectory(dataDirectory: browser.data, visitorID: String(visitor.prefix(32)))))
    let list = try #require(model.checklist(id: 1))
    let page = ChecklistPage(
      list: list, now: clock.now, checkedLast: false, hideChecked: false,
      zone: { TimeZone(identifier: "UTC")! })
    // In English, a phrase's translation is the phrase.
    let partial = try String(
      contentsOfFile: BuiltTool.packageRoot + "/Templates/item-row.mustache", encoding: .utf8
    ).replacing("[[", with: "").replacing("]]", with: "")
    let library = try TemplateLibrary(templates: [
      "item-row": partial,
      "rows": "<ul class=\"rows items\">\n{{#items}}\n{{> item-row}}\n{{/items}}\n</ul>",
    ])
    let expected = try library.render(
      "rows",
      context: [
        "list": ["id": 1], "items": .list(ChecklistScreen.rowValues(page)),
      ])
    #expect(try Self.rows(first) == expected[...])
  }

  @Test func aRowIsRenderedAgainWhenItsWordsStopBeingRight() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try ApplicationHarness { $0.clock = { clock.now } }
    browser.post("/lists/1/items", [("text", "dentist")])
    browser.post("/lists/1/items/1", [("text", "dentist"), ("dueDate", "2026-11-30T09:00")])
    func row() throws -> Substring {
      try Self.rows(browser.text(browser.get("/lists/1?from=test")))
    }
    #expect(try row().contains(">Tomorrow 09:00</time>"))
    clock.set("2026-11-30T00:00:30Z")
    #expect(try row().contains(">Today 09:00</time>"))
    clock.set("2026-11-30T09:00:30Z")
    #expect(try row().contains("<time class=late datetime=2026-11-30T09:00Z>Overdue, Today 09:00"))
    clock.set("2026-12-01T00:00:30Z")
    #expect(try row().contains(">Overdue, Yesterday 09:00</time>"))
  }

  @Test func theKeptResetSentenceFollowsTheClockAndTheRule() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")  // a Sunday
    let browser = try ApplicationHarness { $0.clock = { clock.now } }
    browser.post("/lists/1/items", [("text", "Dishes")])
    let named = [("name", "Chores"), ("icon", "folder")]
    browser.post(
      "/lists/1", named + [("reset", "daily"), ("resetTime", "06:00")])
    func summary() throws -> String {
      let page = browser.text(browser.get("/lists/1?from=test"))
      let start = try #require(page.range(of: #"<p class="reset-summary">"#))
      let end = try #require(page.range(of: "</p>", range: start.upperBound..<page.endIndex))
      return String(page[start.upperBound..<end.lowerBound])
    }
    #expect(try summary() == "Resets every day at 06:00; next: Tomorrow 06:00")
    #expect(try summary() == "Resets every day at 06:00; next: Tomorrow 06:00")
    clock.set("2026-11-30T00:00:30Z")
    #expect(try summary() == "Resets every day at 06:00; next: Today 06:00")
    clock.set("2026-11-30T06:00:30Z")
    #expect(try summary() == "Resets every day at 06:00; next: Tomorrow 06:00")
    browser.post(
      "/lists/1", named + [("reset", "weekly"), ("resetTime", "07:00"), ("resetWeekday", "2")])
    #expect(try summary() == "Resets every week on Tuesday at 07:00; next: Tomorrow 07:00")
  }

  @Test func aRowIsRenderedAgainWhenWhatItShowsChanges() throws {
    let now = ScheduledResetScreenTests.TestClock.utc("2026-11-29T12:00:00Z")
    var list = Checklist(
      id: 7, name: "Chores",
      items: [
        ChecklistItem(id: 1, text: "milk"),
        ChecklistItem(id: 2, text: "dentist", dueDate: now.addingTimeInterval(86_400)),
        ChecklistItem(id: 3, text: "bread"),
      ])
    let fragments = RowFragments()
    var renders: [Int] = []
    func rows(owner: Int = 1, language: Language = .english, zone: String = "UTC")
      -> RowFragments.Rows
    {
      let page = ChecklistPage(
        list: list, now: now, checkedLast: false, hideChecked: false,
        zone: { TimeZone(identifier: zone)! }, labelled: false)
      var labeller = RowLabeller(
        now: now, words: .english, zone: { TimeZone(identifier: zone)! })
      return fragments.rows(
        of: page, owner: owner, language: language, zoneName: { zone }, labeller: &labeller,
        render: { values, parent in
          #expect(parent["list"]?["id"] == .int(7))
          var bytes: [UInt8] = []
          var ends: [Int] = []
          for values in values {
            guard case .object(let row) = values, case .int(let id)? = row["id"] else {
              Issue.record("a row without an id")
              continue
            }
            renders.append(id)
            bytes += Array("<li>\(id)</li>".utf8)
            ends.append(bytes.count)
          }
          return (bytes, ends)
        })
    }
    // Noted the first time, rendered and kept the second, found after.
    #expect(rows().rendered == 3 && renders == [1, 2, 3])
    #expect(rows().rendered == 3 && renders == [1, 2, 3, 1, 2, 3])
    let kept = rows()
    #expect(kept.rendered == 0 && renders.count == 6)
    #expect(kept.changesAt == now.addingTimeInterval(12 * 3_600))  // the next midnight, UTC
    list.items[2].text = "rye bread"
    #expect(rows().rendered == 1 && renders.last == 3)
    list.items[0].checked = true
    #expect(rows().rendered == 1 && renders.last == 1)
    // The dated row is worded in the zone: a page with a date is kept per zone.
    #expect(rows(zone: "Europe/Berlin").rendered == 3)
    #expect(rows(zone: "Europe/Berlin").rendered == 3)
    #expect(rows(zone: "Europe/Berlin").rendered == 0)
    #expect(rows(language: .russian).rendered == 3)
    #expect(rows(owner: 2).rendered == 3)
    #expect(fragments.usage.bytes > 0)
    // Without a date, the page is kept for every zone, and a zone changes nothing.
    list.items.remove(at: 1)
    #expect(rows().rendered == 2)
    #expect(rows().rendered == 2)
    #expect(rows(zone: "Asia/Tokyo").rendered == 0)
  }

  @Test func onlyAPageComputedAgainLatelyHasItsRowsKept() throws {
    let list = Checklist(id: 1, name: "Chores", items: [ChecklistItem(id: 1, text: "milk")])
    let fragments = RowFragments()
    let page = ChecklistPage(
      list: list, now: Date(), checkedLast: false, hideChecked: false,
      zone: { TimeZone(identifier: "UTC")! }, labelled: false)
    var labeller = RowLabeller(now: Date(), words: .english, zone: { TimeZone(identifier: "UTC")! })
    func rows(owner: Int) -> RowFragments.Rows {
      fragments.rows(
        of: page, owner: owner, language: .english, zoneName: { "UTC" }, labeller: &labeller,
        render: Self.fiftyBytesEach)
    }
    // Each owner's page once, more owners than are remembered: none kept.
    for owner in 0...RowFragments.seenCapacity { _ = rows(owner: owner) }
    #expect(fragments.usage.bytes == 0)
    // The first is forgotten: seen again, it is only noted again.
    _ = rows(owner: 0)
    #expect(fragments.usage.bytes == 0)
    // The last ones are remembered: kept at their second computation.
    _ = rows(owner: RowFragments.seenCapacity)
    #expect(fragments.usage.bytes > 0 && rows(owner: RowFragments.seenCapacity).rendered == 0)
  }

  /// A renderer of 50 bytes for each row.
  static func fiftyBytesEach(_ rows: [TemplateValue], _: TemplateValue) -> (
    bytes: [UInt8], ends: [Int]
  ) {
    (
      Array(repeating: UInt8(ascii: "x"), count: 50 * rows.count),
      rows.indices.map { 50 * ($0 + 1) }
    )
  }

  @Test func theBudgetBoundsWhatIsKept() throws {
    let list = Checklist(
      id: 1, name: "Long",
      items: (1...100).map { ChecklistItem(id: $0, text: "item \($0)") })
    let fragments = RowFragments(budget: 60 * (RowFragments.rowOverhead + 64))
    let page = ChecklistPage(
      list: list, now: Date(), checkedLast: false, hideChecked: false,
      zone: { TimeZone(identifier: "UTC")! }, labelled: false)
    var labeller = RowLabeller(now: Date(), words: .english, zone: { TimeZone(identifier: "UTC")! })
    let rows = fragments.rows(
      of: page, owner: 1, language: .english, zoneName: { "UTC" }, labeller: &labeller,
      render: Self.fiftyBytesEach)
    // Seen once: noted, the rows rendered in one run, nothing kept.
    #expect(rows.html.count == 1 && rows.html[0] == .html(Array(repeating: 120, count: 5_000)))
    #expect(rows.rendered == 100 && fragments.usage.bytes == 0)
    // 100 rows of 50 bytes cost more than the budget: the page is not kept.
    for _ in 0..<2 {
      let again = fragments.rows(
        of: page, owner: 1, language: .english, zoneName: { "UTC" }, labeller: &labeller,
        render: Self.fiftyBytesEach)
      #expect(again.rendered == 100 && again.html.count == 100)
      #expect(fragments.usage.bytes == 0)
    }
    let shorter = ChecklistPage(
      list: Checklist(id: 1, name: "Long", items: Array(list.items.prefix(50))), now: Date(),
      checkedLast: false, hideChecked: false, zone: { TimeZone(identifier: "UTC")! },
      labelled: false)
    _ = fragments.rows(
      of: shorter, owner: 1, language: .english, zoneName: { "UTC" }, labeller: &labeller,
      render: Self.fiftyBytesEach)
    #expect(
      fragments.usage.bytes > 0 && fragments.usage.bytes <= 60 * (RowFragments.rowOverhead + 64))
  }
}
