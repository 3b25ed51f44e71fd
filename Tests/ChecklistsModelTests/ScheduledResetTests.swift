import ChecklistsModel
import Foundation
import TestSupport
import Testing

/// Scheduled resets: the boundaries of a rule (DST gaps and repeats, month
/// ends, leap days) against a brute-force oracle, and a model reset once
/// per boundary whoever comes first.
@Suite struct ScheduledResetTests {
  static func utc(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
  }

  static func clock(
    _ days: ResetClock.Days, _ hour: Int, _ minute: Int, _ zone: String
  ) -> ResetClock {
    ResetClock(days: days, hour: hour, minute: minute, zone: zone)!
  }

  // MARK: Examples

  @Test func aTimeTheClocksSkipFallsDueWhenTheyJump() {
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    let berlin = ResetSchedule(Self.clock(.everyDay, 2, 30, "Europe/Berlin"))
    #expect(
      berlin.next(after: Self.utc("2026-03-28T12:00:00Z")) == Self.utc("2026-03-29T01:00:00Z"))
    // Lord Howe, 4 October 2026: 02:00 (+10:30) becomes 02:30 (+11), at 15:30 UTC.
    let lordHowe = ResetSchedule(Self.clock(.everyDay, 2, 15, "Australia/Lord_Howe"))
    #expect(
      lordHowe.next(after: Self.utc("2026-10-03T00:00:00Z")) == Self.utc("2026-10-03T15:30:00Z"))
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    let newYork = ResetSchedule(Self.clock(.everyDay, 2, 0, "America/New_York"))
    #expect(
      newYork.next(after: Self.utc("2026-03-08T00:00:00Z")) == Self.utc("2026-03-08T07:00:00Z"))
  }

  @Test func aTimeTheClocksShowTwiceFallsDueOnceAtTheFirst() {
    // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 comes twice.
    let berlin = ResetSchedule(Self.clock(.everyDay, 2, 30, "Europe/Berlin"))
    let first = berlin.next(after: Self.utc("2026-10-24T12:00:00Z"))
    #expect(first == Self.utc("2026-10-25T00:30:00Z"))
    #expect(berlin.next(after: first) == Self.utc("2026-10-26T01:30:00Z"))
  }

  @Test func aMonthShorterThanTheDayResetsOnItsLastDay() {
    let monthly = ResetSchedule(Self.clock(.dayOfMonth(31), 6, 0, "UTC"))
    var instant = Self.utc("2028-01-31T06:00:00Z")
    var seen: [Date] = []
    for _ in 0..<4 {
      instant = monthly.next(after: instant)
      seen.append(instant)
    }
    #expect(
      seen == [
        Self.utc("2028-02-29T06:00:00Z"), Self.utc("2028-03-31T06:00:00Z"),
        Self.utc("2028-04-30T06:00:00Z"), Self.utc("2028-05-31T06:00:00Z"),
      ])
    let february = ResetSchedule(Self.clock(.dayOfMonth(29), 6, 0, "UTC"))
    #expect(
      february.next(after: Self.utc("2027-01-30T00:00:00Z")) == Self.utc("2027-02-28T06:00:00Z"))
  }

  @Test func weekdaysFallOnTheirDays() {
    // 30 November 2026 is a Monday.
    let rule = ResetSchedule(Self.clock(.weekdays([1, 3]), 6, 0, "Europe/Berlin"))
    let monday = rule.next(after: Self.utc("2026-11-29T12:00:00Z"))
    #expect(monday == Self.utc("2026-11-30T05:00:00Z"))
    #expect(rule.next(after: monday) == Self.utc("2026-12-02T05:00:00Z"))
    #expect(rule.latest(atOrBefore: Self.utc("2026-12-01T00:00:00Z")) == monday)
  }

  @Test func rulesOutOfRangeAreNone() {
    #expect(ResetClock(days: .everyDay, hour: 24, minute: 0, zone: "UTC") == nil)
    #expect(ResetClock(days: .everyDay, hour: 1, minute: 60, zone: "UTC") == nil)
    #expect(ResetClock(days: .weekdays([]), hour: 1, minute: 0, zone: "UTC") == nil)
    #expect(ResetClock(days: .weekdays([8]), hour: 1, minute: 0, zone: "UTC") == nil)
    #expect(ResetClock(days: .dayOfMonth(32), hour: 1, minute: 0, zone: "UTC") == nil)
    #expect(ResetClock(days: .dayOfMonth(0), hour: 1, minute: 0, zone: "UTC") == nil)
    #expect(ResetRule.afterAllChecked(checkedHours: 0) == nil)
    #expect(ResetRule.afterAllChecked(checkedHours: 721) == nil)
    #expect(ResetRule.afterAllChecked(checkedHours: 720) == .afterAllChecked(hours: 720))
  }

  // MARK: The property

  /// The boundaries of a rule the slow way: day by day on Foundation's
  /// Gregorian calendar in the zone, each reset day's boundary found by
  /// walking the instants minute by minute until the wall clock reads the
  /// rule's time or later.
  struct Oracle {
    let clock: ResetClock
    let zone: TimeZone
    var calendar: Calendar
    var utcCalendar: Calendar

    init(_ clock: ResetClock) {
      self.clock = clock
      zone = TimeZone(identifier: clock.zone)!
      calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      utcCalendar = Calendar(identifier: .gregorian)
      utcCalendar.timeZone = TimeZone(identifier: "UTC")!
    }

    func isResetDay(_ noon: Date) -> Bool {
      switch clock.days {
      case .everyDay: return true
      case .weekdays(let days):
        let weekday = calendar.component(.weekday, from: noon)  // 1 = Sunday
        return days.contains((weekday + 5) % 7 + 1)
      case .dayOfMonth(let day):
        let length = calendar.range(of: .day, in: .month, for: noon)!.count
        return calendar.component(.day, from: noon) == min(day, length)
      }
    }

    func boundary(onDayOf noon: Date) -> Date {
      let parts = calendar.dateComponents([.year, .month, .day], from: noon)
      let wanted = utcCalendar.date(
        from: DateComponents(
          year: parts.year, month: parts.month, day: parts.day, hour: clock.hour,
          minute: clock.minute))!.timeIntervalSince1970
      func reading(_ t: Double) -> Double {
        t + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
      }
      var t = wanted - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wanted))) - 7_200
      precondition(reading(t) < wanted)
      while reading(t) < wanted { t += 60 }
      return Date(timeIntervalSince1970: t)
    }

    /// Every boundary in (`start`, `end`], in order.
    func boundaries(after start: Date, through end: Date) -> [Date] {
      var parts = calendar.dateComponents([.year, .month, .day], from: start)
      parts.hour = 12
      var noon = calendar.date(byAdding: .day, value: -1, to: calendar.date(from: parts)!)!
      var found: [Date] = []
      while noon < end.addingTimeInterval(2 * 86_400) {
        if isResetDay(noon) {
          let boundary = boundary(onDayOf: noon)
          if boundary > start && boundary <= end { found.append(boundary) }
        }
        var next = calendar.dateComponents([.year, .month, .day], from: noon)
        next.day! += 1
        next.hour = 12
        noon = calendar.date(from: next)!
      }
      return found
    }
  }

  /// Transitions to start near, so that most cases cross a DST change.
  static let zonesAndTransitions: [(String, [String])] = [
    ("Europe/Berlin", ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", "2028-03-26T01:00:00Z"]),
    ("America/New_York", ["2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z", "2027-11-07T06:00:00Z"]),
    (
      "Australia/Lord_Howe",
      ["2026-04-04T15:00:00Z", "2026-10-03T15:30:00Z", "2028-04-01T15:00:00Z"]
    ),
  ]

  @Test func exactlyOneResetPerVisitAfterABoundaryAndNoneEarly() throws {
    let seed =
      ProcessInfo.processInfo.environment["RESET_PROPERTY_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    var random = SeededGenerator(seed: seed)
    for caseNumber in 0..<120 {
      let (zoneName, transitions) = Self.zonesAndTransitions.randomElement(using: &random)!
      let days: ResetClock.Days
      switch Int.random(in: 0..<3, using: &random) {
      case 0: days = .everyDay
      case 1:
        let count = Int.random(in: 1...3, using: &random)
        days = .weekdays((0..<count).map { _ in Int.random(in: 1...7, using: &random) })
      default: days = .dayOfMonth(Int.random(in: 25...31, using: &random))
      }
      // Often in the small hours, where the clocks change.
      let hour =
        Bool.random(using: &random)
        ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...23, using: &random)
      let minute = [0, 15, 30, 45, Int.random(in: 0...59, using: &random)].randomElement(
        using: &random)!
      let clock = try #require(ResetClock(days: days, hour: hour, minute: minute, zone: zoneName))
      let oracle = Oracle(clock)
      let transition = Self.utc(transitions.randomElement(using: &random)!)
      let start = transition.addingTimeInterval(
        Double(Int.random(in: -40 * 86_400...0, using: &random)))
      let end = start.addingTimeInterval(Double(Int.random(in: 10...90, using: &random) * 86_400))
      let expected = oracle.boundaries(after: start, through: end.addingTimeInterval(45 * 86_400))
      let context = "seed \(seed), case \(caseNumber): \(clock) from \(start)"

      // Visits: random instants, some just before, at and after boundaries,
      // and long stretches with none.
      var visits: [Date] = (0..<Int.random(in: 1...12, using: &random)).map { _ in
        start.addingTimeInterval(
          Double.random(in: 0...end.timeIntervalSince(start), using: &random).rounded(.down))
      }
      for boundary in expected where boundary <= end && Int.random(in: 0..<4, using: &random) == 0 {
        visits.append(boundary.addingTimeInterval(Double(Int.random(in: -1...1, using: &random))))
      }
      visits = Array(Set(visits.filter { $0 > start })).sorted()

      var model = DataModel()
      let list = try model.addList(name: "Weekly", icon: .folder)
      let item = try model.addItem(text: "Water plants", toList: list)
      try model.setResetRule(.clock(clock), ofList: list)
      model.settleResets(at: start)
      var previous = start
      for visit in visits {
        if !(model.checklist(id: list)!.items[0].checked) {
          try model.toggleItem(id: item, inList: list)
        }
        let reset = model.applyDueResets(at: visit)
        let passed = expected.last { $0 > previous && $0 <= visit }
        #expect(reset == (passed == nil ? [] : [list]), "\(context), visit \(visit)")
        let state = try #require(model.checklist(id: list)?.reset)
        if let passed {
          #expect(state.lastReset == passed, "\(context), visit \(visit)")
          #expect(model.checklist(id: list)!.items[0].checked == false, "\(context)")
        }
        #expect(state.due == expected.first { $0 > visit }, "\(context), visit \(visit)")
        // Applied again at once: nothing more.
        #expect(model.applyDueResets(at: visit).isEmpty, "\(context), visit \(visit)")
        previous = visit
      }
    }
  }

  // MARK: The model

  @Test func afterEveryItemIsCheckedTheListResetsHoursLater() throws {
    var model = DataModel()
    let list = try model.addList(name: "Chores", icon: .folder)
    let a = try model.addItem(text: "Dishes", toList: list)
    let b = try model.addItem(text: "Laundry", toList: list)
    try model.setResetRule(.afterAllChecked(hours: 2), ofList: list)
    let start = Self.utc("2026-12-01T10:00:00Z")
    model.settleResets(at: start)
    #expect(model.nextResetDue == nil)
    try model.toggleItem(id: a, inList: list)
    model.settleResets(at: start.addingTimeInterval(60))
    #expect(model.nextResetDue == nil)
    try model.toggleItem(id: b, inList: list)
    let done = start.addingTimeInterval(120)
    model.settleResets(at: done)
    #expect(model.nextResetDue == done.addingTimeInterval(7_200))
    #expect(model.applyDueResets(at: done.addingTimeInterval(7_199)).isEmpty)
    #expect(model.applyDueResets(at: done.addingTimeInterval(7_200)) == [list])
    #expect(model.checklist(id: list)!.items.allSatisfy { !$0.checked })
    #expect(model.nextResetDue == nil)
    #expect(model.applyDueResets(at: done.addingTimeInterval(90_000)).isEmpty)
  }

  @Test func aDuplicateAndATemplateCarryTheRuleButNotItsLastReset() throws {
    var model = DataModel()
    let list = try model.addList(name: "Weekly", icon: .folder)
    let rule = ResetRule.clock(Self.clock(.weekdays([1]), 6, 0, "Europe/Berlin"))
    try model.setResetRule(rule, ofList: list)
    model.settleResets(at: Self.utc("2026-01-01T00:00:00Z"))
    let copy = try model.duplicateList(id: list)
    let template = try model.saveAsTemplate(listID: list)
    #expect(model.checklist(id: copy)?.reset?.rule == rule)
    #expect(model.checklist(id: copy)?.reset?.lastReset == nil)
    #expect(model.template(id: template)?.reset?.rule == rule)
    #expect(model.template(id: template)?.reset?.lastReset == nil)
    let made = try model.addList(fromTemplate: template)
    model.settleResets(at: Self.utc("2026-02-01T00:00:00Z"))
    #expect(model.checklist(id: made)?.reset?.lastReset == Self.utc("2026-02-01T00:00:00Z"))
    #expect(model.checklist(id: list)?.reset?.lastReset == Self.utc("2026-01-01T00:00:00Z"))
  }

  @Test func theRuleGoesThroughTheFileAsVersion4() throws {
    var model = DataModel()
    let list = try model.addList(name: "Monthly", icon: .folder)
    #expect(model.formatVersion == 2)
    try model.setResetRule(
      .clock(Self.clock(.dayOfMonth(31), 7, 45, "America/New_York")), ofList: list)
    model.settleResets(at: Self.utc("2026-05-01T12:34:56Z"))
    #expect(model.formatVersion == 4)
    let data = try PropertyListEncoder().encode(model)
    let read = try PropertyListDecoder().decode(DataModel.self, from: data)
    #expect(read == model)
    #expect(read.checklist(id: list)?.reset?.due == model.checklist(id: list)?.reset?.due)
  }
}
