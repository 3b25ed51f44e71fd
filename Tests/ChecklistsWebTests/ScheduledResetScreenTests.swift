import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Synchronization
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Edit List's Scheduled Reset through `Application.respond(to:)`: the form
/// and its refusals, the line under the heading, and a reset applied by the
/// first request after its boundary (the clock injected), not before, and
/// never from a page the memo kept.
@Suite struct ScheduledResetScreenTests {
  /// A clock the test moves.
  final class TestClock: Sendable {
    private let instant: Mutex<Date>
    init(_ text: String) { instant = Mutex(Self.utc(text)) }
    var now: Date { instant.withLock { $0 } }
    func set(_ text: String) { instant.withLock { $0 = Self.utc(text) } }
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
  }

  static func browser(_ clock: TestClock) throws -> ApplicationHarness {
    try ApplicationHarness { $0.clock = { clock.now } }
  }

  static let named = [("name", "Chores"), ("icon", "folder")]

  static func checked(_ page: String) -> Bool {
    page.contains(#"aria-pressed=true name=check value=0>Dishes</button>"#)
  }

  @Test func theRuleIsSavedShownAndEditedAgain() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")  // a Sunday
    let browser = try Self.browser(clock)
    let edit = browser.text(browser.get("/lists/1/edit"))
    #expect(edit.contains(#"<legend>Scheduled Reset</legend>"#))
    #expect(edit.contains(#"name="reset" value="none" checked"#))
    let saved = browser.post(
      "/lists/1",
      Self.named + [
        ("reset", "weekly"), ("resetTime", "06:00"), ("resetWeekday", "1"),
        ("resetWeekday", "3"), ("resetDay", "1"), ("resetHours", "24"),
      ])
    #expect(saved.status == .seeOther)
    let page = browser.text(browser.get("/lists/1"))
    #expect(
      page.contains(
        #"<p class="reset-summary">Resets every week on Monday, Wednesday at 06:00; next: Tomorrow 06:00</p>"#
      ))
    let again = browser.text(browser.get("/lists/1/edit"))
    #expect(again.contains(#"name="reset" value="weekly" checked"#))
    #expect(again.contains(#"name="resetWeekday" value="1" checked"#))
    #expect(again.contains(#"name="resetWeekday" value="3" checked"#))
    #expect(!again.contains(#"name="resetWeekday" value="2" checked"#))
    #expect(again.contains(#"name="resetTime" type="time" value="06:00""#))

    browser.post(
      "/lists/1", Self.named + [("reset", "monthly"), ("resetTime", "07:30"), ("resetDay", "31")])
    #expect(
      browser.text(browser.get("/lists/1")).contains(
        "Resets every month on day 31 at 07:30; next: Tomorrow 07:30"))
    browser.post("/lists/1", Self.named + [("reset", "afterAllChecked"), ("resetHours", "12")])
    #expect(
      browser.text(browser.get("/lists/1")).contains(
        "Resets 12 hours after every item is checked</p>"))
    browser.post("/lists/1", Self.named + [("reset", "none")])
    #expect(!browser.text(browser.get("/lists/1")).contains("reset-summary"))
    // A form without the fieldset leaves the rule as it is.
    browser.post("/lists/1", Self.named + [("reset", "daily"), ("resetTime", "05:00")])
    browser.post("/lists/1", [("name", "Renamed"), ("icon", "folder")])
    #expect(browser.text(browser.get("/lists/1")).contains("Resets every day at 05:00"))
  }

  @Test(arguments: [
    (
      [("reset", "weekly"), ("resetTime", "06:00")], "Please choose at least one day of the week."
    ),
    (
      [("reset", "weekly"), ("resetTime", "06:00"), ("resetWeekday", "8")],
      "Please choose at least one day of the week."
    ),
    (
      [("reset", "monthly"), ("resetTime", "06:00"), ("resetDay", "32")],
      "Please give a day of the month from 1 to 31."
    ),
    (
      [("reset", "monthly"), ("resetTime", "06:00"), ("resetDay", "")],
      "Please give a day of the month from 1 to 31."
    ),
    ([("reset", "daily"), ("resetTime", "25:00")], "Please give the reset’s time, such as 06:00."),
    ([("reset", "daily"), ("resetTime", "")], "Please give the reset’s time, such as 06:00."),
    (
      [("reset", "afterAllChecked"), ("resetHours", "0")],
      "Please give a number of hours from 1 to 720 for the reset."
    ),
    (
      [("reset", "afterAllChecked"), ("resetHours", "721")],
      "Please give a number of hours from 1 to 720 for the reset."
    ),
    ([("reset", "sometimes")], "Please choose when the list resets."),
  ])
  func badRulesAre400WithTheFormAsTypedAndNothingStored(
    fields: [(String, String)], message: String
  ) throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try Self.browser(clock)
    browser.post("/lists/1/items", [("text", "Dishes")])
    let refused = browser.post("/lists/1", [("name", "Typed name"), ("icon", "folder")] + fields)
    #expect(refused.status == .badRequest)
    let body = browser.text(refused)
    #expect(body.contains(message))
    #expect(body.contains(#"value="Typed name""#))
    if let kind = fields.first?.1, kind != "sometimes" {
      #expect(body.contains(#"name="reset" value="\#(kind)" checked"#))
    }
    let page = browser.text(browser.get("/lists/1"))
    #expect(!page.contains("reset-summary") && !page.contains("Typed name"))
  }

  @Test func aResetIsAppliedByTheFirstRequestAfterItsBoundaryAndNotBefore() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try Self.browser(clock)
    browser.post("/lists/1/items", [("text", "Dishes")])
    browser.post("/lists/1", Self.named + [("reset", "daily"), ("resetTime", "06:00")])
    browser.post("/lists/1/items/1/toggle", [("check", "1")])
    // The page twice: the second from the memo.
    #expect(Self.checked(browser.text(browser.get("/lists/1"))))
    #expect(Self.checked(browser.text(browser.get("/lists/1"))))
    clock.set("2026-11-30T05:59:59Z")
    #expect(Self.checked(browser.text(browser.get("/lists/1"))))
    clock.set("2026-11-30T06:00:00Z")
    let reset = browser.text(browser.get("/lists/1"))
    #expect(!Self.checked(reset))
    #expect(reset.contains("next: Tomorrow 06:00"))
    // Checked again, it stays checked until the next boundary.
    clock.set("2026-11-30T06:01:00Z")
    browser.post("/lists/1/items/1/toggle", [("check", "1")])
    #expect(Self.checked(browser.text(browser.get("/lists/1"))))
    clock.set("2026-12-01T05:59:00Z")
    #expect(Self.checked(browser.text(browser.get("/lists/1"))))
    // Three boundaries pass unseen: one reset, recorded as the latest.
    clock.set("2026-12-04T07:00:00Z")
    #expect(!Self.checked(browser.text(browser.get("/lists/1"))))
    let stored = try #require(
      browser.storedFiles().first { $0.key.hasSuffix("Checklists.plist") }?.value)
    #expect(
      String(decoding: stored, as: UTF8.self).contains(
        "<key>lastReset</key>\n\t\t\t<date>2026-12-04T06:00:00Z</date>"))
    // The All Lists page counts it as reset too.
    #expect(browser.text(browser.get("/lists")).contains("1 Remaining"))
  }

  @Test func aToggleAfterTheBoundaryFindsTheListResetFirst() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try Self.browser(clock)
    browser.post("/lists/1/items", [("text", "Dishes")])
    browser.post("/lists/1/items", [("text", "Laundry")])
    browser.post("/lists/1", Self.named + [("reset", "afterAllChecked"), ("resetHours", "1")])
    browser.post("/lists/1/items/1/toggle", [("check", "1")])
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    #expect(browser.text(browser.get("/lists/1")).contains("next: Today 13:00"))
    clock.set("2026-11-29T13:00:00Z")
    // The toggle of one item, sent after the boundary: the reset first, then it.
    browser.post("/lists/1/items/2/toggle", [("check", "1")])
    let page = browser.text(browser.get("/lists/1"))
    #expect(!Self.checked(page))
    #expect(page.contains(#"aria-pressed=true name=check value=0>Laundry</button>"#))
  }

  @Test func theLineAndTheFieldsetSpeakTheVisitorsLanguage() throws {
    let clock = TestClock("2026-11-29T12:00:00Z")
    let browser = try Self.browser(clock)
    browser.post(
      "/lists/1",
      Self.named + [
        ("reset", "weekly"), ("resetTime", "06:00"), ("resetWeekday", "1"), ("resetWeekday", "7"),
      ])
    var russian = HTTPFields()
    russian[.acceptLanguage] = "ru"
    let page = browser.text(browser.get("/lists/1", headerFields: russian))
    #expect(
      page.contains(
        "Сброс каждую неделю (Понедельник, Воскресенье) в 06:00; следующий: Завтра 06:00"))
    let edit = browser.text(browser.get("/lists/1/edit", headerFields: russian))
    #expect(edit.contains("<legend>Сброс по расписанию</legend>"))
    #expect(!edit.contains("Scheduled Reset") && !edit.contains("Monday"))
    var german = HTTPFields()
    german[.acceptLanguage] = "de"
    #expect(
      browser.text(browser.get("/lists/1", headerFields: german)).contains(
        "Wird jede Woche (Montag, Sonntag) um 06:00 zurückgesetzt; nächstes Mal: Morgen 06:00"))
  }
}
