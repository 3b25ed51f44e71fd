import ChecklistsModel
import Foundation
import Testing

/// Repeating items: the RRULE subset read and written, the next occurrence
/// (month ends, leap days, changes of clocks), and what checking does.
@Suite struct RecurrenceTests {
  typealias Rule = Recurrence.Rule
  typealias Time = Recurrence.LocalTime

  static func time(_ text: String) -> Time { Time(basic: text)! }

  static func utc(_ text: String) -> Date {
    time(text).date(in: TimeZone(secondsFromGMT: 0)!)
  }

  // MARK: RRULE text

  @Test(arguments: [
    "FREQ=DAILY",
    "FREQ=DAILY;INTERVAL=3",
    "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU",
    "FREQ=MONTHLY;BYMONTHDAY=31",
    "FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=-1",
    "FREQ=YEARLY;INTERVAL=4",
    "FREQ=DAILY;COUNT=10",
    "FREQ=WEEKLY;UNTIL=20270101T000000Z",
    "FREQ=MONTHLY;UNTIL=20270315",
    "FREQ=YEARLY;UNTIL=20300101T090000",
  ])
  func aRuleOfTheSubsetReadsAndWritesTheSame(text: String) throws {
    let rule = try #require(Rule(parsing: text))
    #expect(rule.text == text)
    #expect(Rule(parsing: rule.text) == rule)
    let recurrence = Recurrence(text: text)
    #expect(recurrence.rule == rule)
    #expect(recurrence.text == text)
  }

  @Test func aRuleIsReadWhateverTheOrderOfItsParts() throws {
    let rule = try #require(Rule(parsing: "BYDAY=FR,MO;INTERVAL=2;WKST=MO;FREQ=WEEKLY"))
    #expect(rule == Rule(frequency: .weekly, interval: 2, weekdays: [.monday, .friday]))
    #expect(rule.text == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR")
  }

  @Test(arguments: [
    "FREQ=HOURLY", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=MO", "FREQ=DAILY;BYDAY=MO",
    "FREQ=WEEKLY;BYMONTHDAY=3", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYMONTHDAY=32",
    "FREQ=YEARLY;BYMONTH=3", "FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;INTERVAL=1001",
    "FREQ=DAILY;COUNT=3;UNTIL=20270101", "FREQ=WEEKLY;WKST=SU", "FREQ=DAILY;FREQ=DAILY",
    "FREQ=DAILY;X-NAME=1", "freq=daily", "", "FREQ=WEEKLY;BYDAY=MO,MO", "FREQ=DAILY;UNTIL=2027",
  ])
  func aRuleOutsideTheSubsetIsKeptVerbatim(text: String) {
    let recurrence = Recurrence(text: text)
    #expect(recurrence.rule == nil)
    #expect(recurrence.text == text)
  }

  // MARK: Next occurrence

  @Test(arguments: [
    // Daily, every N.
    ("FREQ=DAILY", "20260228T090000", "20260301T090000"),
    ("FREQ=DAILY;INTERVAL=10", "20261225T180000", "20270104T180000"),
    // Weekly on days, every other week from the due date's week.
    ("FREQ=WEEKLY", "20261127T070000", "20261204T070000"),
    ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "20261127T070000", "20261130T070000"),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "20261123T070000", "20261127T070000"),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "20261127T070000", "20261207T070000"),
    ("FREQ=WEEKLY;BYDAY=SU", "20261129T235900", "20261206T235900"),
    // Monthly: a day the month lacks is skipped, -1 is the last day.
    ("FREQ=MONTHLY", "20260131T090000", "20260331T090000"),
    ("FREQ=MONTHLY;BYMONTHDAY=31", "20260331T090000", "20260531T090000"),
    ("FREQ=MONTHLY;BYMONTHDAY=30", "20260130T090000", "20260330T090000"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "20260131T090000", "20260228T090000"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "20280131T090000", "20280229T090000"),
    ("FREQ=MONTHLY;BYMONTHDAY=20", "20260105T090000", "20260120T090000"),
    ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15", "20261115T090000", "20270215T090000"),
    // Yearly: 29 February comes back in the next leap year.
    ("FREQ=YEARLY", "20240229T090000", "20280229T090000"),
    ("FREQ=YEARLY;INTERVAL=3", "20240229T090000", "20360229T090000"),
    ("FREQ=YEARLY", "20260704T120000", "20270704T120000"),
    ("FREQ=YEARLY", "20960229T090000", "21040229T090000"),
  ])
  func theNextOccurrenceIsStrictlyAfter(text: String, from: String, next: String) throws {
    let rule = try #require(Rule(parsing: text))
    #expect(rule.next(after: Self.time(from)) == Self.time(next))
  }

  @Test func untilIsTheLastOccurrenceAllowed() throws {
    let rule = try #require(Rule(parsing: "FREQ=DAILY;UNTIL=20261130T090000"))
    #expect(rule.next(after: Self.time("20261129T090000")) == Self.time("20261130T090000"))
    #expect(rule.next(after: Self.time("20261130T090000")) == nil)
    let byDate = try #require(Rule(parsing: "FREQ=DAILY;UNTIL=20261130"))
    #expect(byDate.next(after: Self.time("20261129T230000")) == Self.time("20261130T230000"))
    #expect(byDate.next(after: Self.time("20261130T000000")) == nil)
  }

  @Test func aRuleWithNoOccurrenceLeftEndsAtTheYear9999() throws {
    // Every 12 months from April: no 31st ever comes.
    let rule = try #require(Rule(parsing: "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31"))
    #expect(rule.next(after: Self.time("20260415T090000")) == nil)
    #expect(
      try #require(Rule(parsing: "FREQ=DAILY")).next(after: Self.time("99991231T090000")) == nil)
  }

  // MARK: Changes of clocks

  @Test func aDailyItemKeepsItsWallClockTimeAcrossSummerTimeInBerlin() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let recurrence = Recurrence(text: "FREQ=DAILY")
    // 09:00 on 28 March 2026 is 08:00Z; Berlin moves to summer time on the
    // 29th, so 09:00 then is 07:00Z.
    let due = Self.utc("20260328T080000")
    let next = try #require(recurrence.advanced(from: due, in: berlin))
    #expect(next.dueDate == Self.utc("20260329T070000"))
    #expect(Recurrence.LocalTime(next.dueDate, in: berlin) == Self.time("20260329T090000"))
    // And back in October.
    let autumn = try #require(recurrence.advanced(from: Self.utc("20261024T070000"), in: berlin))
    #expect(autumn.dueDate == Self.utc("20261025T080000"))
  }

  @Test func aWeeklyItemKeepsItsWallClockTimeAcrossTheEndOfSummerTimeInNewYork() throws {
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    let recurrence = Recurrence(text: "FREQ=WEEKLY;BYDAY=SA")
    // Saturday 31 October 2026 18:30 EDT (22:30Z); clocks go back on 1 November.
    let next = try #require(recurrence.advanced(from: Self.utc("20261031T223000"), in: newYork))
    #expect(next.dueDate == Self.utc("20261107T233000"))
    #expect(Recurrence.LocalTime(next.dueDate, in: newYork) == Self.time("20261107T183000"))
  }

  @Test func aTimeTheClocksSkipIsReadAsTheDueDateFormReadsIt() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    // Daily at 02:30: on 29 March 2026 there is no 02:30 in Berlin; the
    // offset before the change makes it 03:30 summer time (01:30Z).
    let next = try #require(
      Recurrence(text: "FREQ=DAILY").advanced(from: Self.utc("20260328T013000"), in: berlin))
    #expect(next.dueDate == Self.utc("20260329T013000"))
  }

  // MARK: Count and until

  @Test func countCountsDownAndItsLastOccurrenceEndsTheRule() throws {
    let zone = TimeZone(secondsFromGMT: 0)!
    let recurrence = Recurrence(text: "FREQ=DAILY;COUNT=2")
    let next = try #require(recurrence.advanced(from: Self.utc("20261127T090000"), in: zone))
    #expect(next.dueDate == Self.utc("20261128T090000"))
    #expect(next.recurrence.text == "FREQ=DAILY;COUNT=1")
    #expect(next.recurrence.advanced(from: next.dueDate, in: zone) == nil)
  }

  // MARK: Checking a repeating item

  static let zone = TimeZone(identifier: "Europe/Berlin")!
  static let now = utc("20261127T120000")

  static func model(rule: String, due: Date?) throws -> (DataModel, list: Int, item: Int) {
    var model = DataModel()
    let list = try model.addList(name: "Chores", icon: .folder)
    let item = try model.addItem(text: "Water the plants", toList: list)
    try model.editItem(
      id: item, inList: list, text: "Water the plants", dueDate: due, shouldRemind: false,
      recurrence: .some(Recurrence(text: rule)))
    return (model, list, item)
  }

  @Test func checkingARepeatingItemMovesItOnUncheckedAndNotesWhenItWasDone() throws {
    var (model, list, item) = try Self.model(
      rule: "FREQ=WEEKLY;BYDAY=MO,TH", due: Self.utc("20261126T080000"))
    let moment = CheckMoment(now: Self.now, zone: Self.zone)
    #expect(try model.toggleItem(id: item, inList: list, at: moment) == false)
    var stored = try #require(model.checklist(id: list)?.item(id: item))
    #expect(stored.dueDate == Self.utc("20261130T080000"))
    #expect(stored.lastDone == Self.now)
    #expect(!stored.checked)
    try model.setAllItems(inList: list, checked: true, at: moment)
    stored = try #require(model.checklist(id: list)?.item(id: item))
    #expect(stored.dueDate == Self.utc("20261203T080000"))
    #expect(!stored.checked)
  }

  @Test func aCheckSentTwiceMovesTheItemOnce() throws {
    let due = Self.utc("20261126T080000")
    var (model, list, item) = try Self.model(rule: "FREQ=DAILY", due: due)
    let moment = CheckMoment(now: Self.now, zone: Self.zone)
    for _ in 0..<2 {
      try model.setItem(id: item, inList: list, checked: true, at: moment, shownDue: due)
    }
    #expect(model.checklist(id: list)?.item(id: item)?.dueDate == Self.utc("20261127T080000"))
  }

  @Test func withoutAMomentOrARuleOfTheSubsetOrADueDateTheItemIsChecked() throws {
    var (plain, list, item) = try Self.model(rule: "FREQ=DAILY", due: Self.utc("20261126T080000"))
    #expect(try plain.toggleItem(id: item, inList: list))
    let moment = CheckMoment(now: Self.now, zone: Self.zone)
    for (rule, due) in [
      ("FREQ=MONTHLY;BYDAY=2TU", Self.utc("20261126T080000")), ("FREQ=DAILY", nil),
    ] {
      var (model, list, item) = try Self.model(rule: rule, due: due)
      #expect(try model.toggleItem(id: item, inList: list, at: moment))
      #expect(model.checklist(id: list)?.item(id: item)?.recurrence?.text == rule)
    }
  }

  @Test func theLastOccurrenceIsCheckedAndRepeatsNoMore() throws {
    var (model, list, item) = try Self.model(
      rule: "FREQ=DAILY;UNTIL=20261126T235959Z", due: Self.utc("20261126T080000"))
    #expect(
      try model.toggleItem(id: item, inList: list, at: CheckMoment(now: Self.now, zone: Self.zone)))
    let stored = try #require(model.checklist(id: list)?.item(id: item))
    #expect(stored.recurrence == nil)
    #expect(stored.dueDate == Self.utc("20261126T080000"))
    #expect(stored.lastDone == Self.now)
  }

  @Test func aRepeatingItemIsStoredWithItsRuleAndLastDone() throws {
    var (model, list, item) = try Self.model(
      rule: "FREQ=MONTHLY;BYDAY=-1FR", due: Self.utc("20261126T080000"))
    _ = try model.toggleItem(id: item, inList: list)
    var (moved, movedList, movedItem) = try Self.model(
      rule: "FREQ=YEARLY", due: Self.utc("20240229T080000"))
    _ = try moved.toggleItem(
      id: movedItem, inList: movedList, at: CheckMoment(now: Self.now, zone: Self.zone))
    for model in [model, moved] {
      #expect(model.formatVersion == 4)  // a version-3 backend would drop the rule
      let data = try PropertyListEncoder().encode(model)
      let read = try PropertyListDecoder().decode(DataModel.self, from: data)
      #expect(read == model)
    }
    #expect(
      moved.checklist(id: movedList)?.item(id: movedItem)?.dueDate == Self.utc("20280229T080000"))
  }
}
