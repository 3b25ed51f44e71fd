import Foundation
import Support
import Testing

@Suite struct CivilDateTests {
  /// Every day from year 1 to 9999 round-trips, and a sample agrees with
  /// Foundation's Gregorian calendar in UTC (negative days included) from
  /// 1583 on: before the 1582 reform Foundation counts Julian dates, where
  /// ISO 8601 and property lists go on counting Gregorian ones.
  @Test func daysAndDatesAgreeWithFoundation() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let first = CivilDate.daysSince1970(year: 1, month: 1, day: 1)
    let last = CivilDate.daysSince1970(year: 9999, month: 12, day: 31)
    #expect(CivilDate.date(daysSince1970: 0) == (1970, 1, 1))
    #expect(CivilDate.date(daysSince1970: -1) == (1969, 12, 31))
    #expect(CivilDate.date(daysSince1970: 11_016) == (2000, 2, 29))
    var previous = CivilDate.date(daysSince1970: first - 1)
    for days in stride(from: first, through: last, by: 1) {
      let date = CivilDate.date(daysSince1970: days)
      #expect(CivilDate.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
      #expect(date.day == previous.day + 1 || date.day == 1)
      previous = date
      if days % 977 == 0 && date.year >= 1583 {
        let parts = calendar.dateComponents(
          [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
        #expect(parts.year == date.year && parts.month == date.month && parts.day == date.day)
      }
    }
  }

  @Test func monthLengthsAndLeapYears() {
    #expect(CivilDate.days(inMonth: 2, ofYear: 2024) == 29)
    #expect(CivilDate.days(inMonth: 2, ofYear: 1900) == 28)
    #expect(CivilDate.days(inMonth: 2, ofYear: 2000) == 29)
    #expect(CivilDate.days(inMonth: 4, ofYear: 2025) == 30)
    #expect(CivilDate.days(inMonth: 12, ofYear: 2025) == 31)
  }
}
