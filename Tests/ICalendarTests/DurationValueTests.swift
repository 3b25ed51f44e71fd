import Foundation
import Testing

@testable import ICalendar

/// `DURATION` values: weeks, days and a time, a sign, nominal days across
/// a change of clocks; what is not one, refused.
@Suite struct DurationValueTests {
  @Test func readsWeeksDaysAndTimes() {
    #expect(DurationValue("P1W") == DurationValue(days: 7, seconds: 0))
    #expect(DurationValue("P2DT3H4M5S") == DurationValue(days: 2, seconds: 3 * 3_600 + 245))
    #expect(DurationValue("-PT15M") == DurationValue(days: 0, seconds: 900, isNegative: true))
    #expect(DurationValue("+pt1h30m") == DurationValue(days: 0, seconds: 5_400))
    #expect(DurationValue("PT0S") == DurationValue(days: 0, seconds: 0))
    #expect(DurationValue("P15D") == DurationValue(days: 15, seconds: 0))
  }

  @Test func refusesWhatIsNotADuration() {
    for text in [
      "", "P", "PT", "1D", "P1", "P1H", "PT1D", "P1W2D", "P1WT1H", "PT1M1H", "P1D1D", "PTT1H",
      "P-1D", "P1DT", "P 1D", "P1234567890D", "--P1D", "P1.5D",
    ] {
      #expect(DurationValue(text) == nil, "\(text)")
    }
  }

  @Test func addsNominalDaysAndExactSeconds() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    // 2025-03-29 12:00 in Berlin (UTC+1); clocks go forward the next night.
    let before = Date(timeIntervalSince1970: 1_743_246_000)
    let day = try #require(DurationValue("P1D")?.added(to: before, in: berlin))
    #expect(day.timeIntervalSince(before) == 23 * 3_600)
    let hours = try #require(DurationValue("PT24H")?.added(to: before, in: berlin))
    #expect(hours.timeIntervalSince(before) == 24 * 3_600)
    let back = try #require(DurationValue("-P1DT1H")?.added(to: before, in: .gmt))
    #expect(before.timeIntervalSince(back) == 25 * 3_600)
    // The longest a value may say still adds up without trapping.
    _ = DurationValue("P999999999W")?.added(to: before, in: .gmt)
  }
}
