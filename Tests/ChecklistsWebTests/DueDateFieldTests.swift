import Foundation
import TestSupport
import Testing

@testable import ChecklistsWeb

/// The item form's due date: what a date field or a visitor types, read as
/// a wall-clock time in their zone, and shown back in it.
@Suite struct DueDateFieldTests {
  static let utc = TimeZone(identifier: "UTC")!
  static let berlin = TimeZone(identifier: "Europe/Berlin")!
  static let newYork = TimeZone(identifier: "America/New_York")!

  /// Seconds since 1970 of a UTC time written as ISO 8601.
  static func utcSeconds(_ text: String) -> Double {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text)!.timeIntervalSince1970
  }

  static func parsed(_ text: String, _ zone: TimeZone = utc) throws -> Double? {
    try DueDateField.parse(text, in: zone)?.timeIntervalSince1970
  }

  @Test(arguments: [
    ("2030-05-12T14:30", "2030-05-12T14:30:00Z"),
    ("2030-05-12 14:30", "2030-05-12T14:30:00Z"),
    ("2030-05-12T14:30:45", "2030-05-12T14:30:45Z"),
    ("2030-05-12T14:30:45.999", "2030-05-12T14:30:45Z"),
    ("  2030-05-12T14:30 ", "2030-05-12T14:30:00Z"),
    ("2030-05-12", "2030-05-12T09:00:00Z"),
    ("2028-02-29T23:59", "2028-02-29T23:59:00Z"),
    ("2000-02-29", "2000-02-29T09:00:00Z"),
    ("1970-01-01T00:00", "1970-01-01T00:00:00Z"),
    ("9999-12-31T23:59:59", "9999-12-31T23:59:59Z"),
  ])
  func readsWhatADateFieldOrAVisitorSends(typed: String, utc: String) throws {
    #expect(try Self.parsed(typed) == Self.utcSeconds(utc))
  }

  @Test func anEmptyFieldIsNoDueDate() throws {
    #expect(try Self.parsed("") == nil)
    #expect(try Self.parsed("   ") == nil)
  }

  @Test(arguments: [
    "tomorrow", "2030-13-01T10:00", "2030-00-10T10:00", "2030-02-29T10:00", "2030-04-31",
    "2030-05-12T24:00", "2030-05-12T12:60", "2030-05-12T12:30:60", "2030-5-12", "2030-05-12T1:00",
    "30-05-12", "2030/05/12", "2030-05-12T14:30Z", "2030-05-12T14:30+02:00", "2030-05-12T",
    "2030-05-12T14", "2030-05-12T14:30:", "2030-05-12T14:30:45.", "2030-05-12T14:30:45.1234567890",
    "2030-05-12x", "-2030-05-12", "+2030-05-12", "２０３０-05-12", "2030-05-12\u{0}", "12.05.2030",
    "1234567-01-01",
  ])
  func malformedDatesAreRefusedAsSuch(typed: String) {
    #expect(throws: DueDateField.Refusal.malformed(typed.trimmingCharacters(in: .whitespaces))) {
      try Self.parsed(typed)
    }
  }

  @Test(arguments: [
    "1969-12-31T23:59", "1969-07-20", "10000-01-01T00:00", "99999-12-31", "0000-01-01",
    "0001-01-01T00:00",
  ])
  func datesOutside1970To9999AreRefused(typed: String) {
    #expect(throws: DueDateField.Refusal.outOfRange) { try Self.parsed(typed) }
  }

  @Test func theRangeIsTheInstantsToo() throws {
    // Midnight of 1 January 1970 in Berlin is still 1969 in UTC; the last
    // minute of 9999 in New York is already 10000.
    #expect(throws: DueDateField.Refusal.outOfRange) {
      try Self.parsed("1970-01-01T00:30", Self.berlin)
    }
    #expect(throws: DueDateField.Refusal.outOfRange) {
      try Self.parsed("9999-12-31T23:59", Self.newYork)
    }
    #expect(try Self.parsed("1970-01-01T01:00", Self.berlin) == 0)
    #expect(try Self.parsed("9999-12-31T18:59:59", Self.newYork) == 253_402_300_799)
  }

  @Test func aWallClockTimeIsInTheVisitorsZone() throws {
    #expect(
      try Self.parsed("2030-07-01T12:00", Self.berlin) == Self.utcSeconds("2030-07-01T10:00:00Z"))
    #expect(
      try Self.parsed("2030-01-15T12:00", Self.berlin) == Self.utcSeconds("2030-01-15T11:00:00Z"))
    #expect(
      try Self.parsed("2030-07-01T12:00", Self.newYork) == Self.utcSeconds("2030-07-01T16:00:00Z"))
    #expect(
      try Self.parsed("2030-05-12", TimeZone(identifier: "Asia/Kolkata")!)
        == Self.utcSeconds("2030-05-12T03:30:00Z"))
  }

  /// A time the clocks skip is read with the offset before the change:
  /// as far past the change as it was into the skipped hour.
  @Test func aTimeInTheHourSkippedInSpringLandsAfterIt() throws {
    // Berlin, 31 March 2030: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    #expect(
      try Self.parsed("2030-03-31T02:30", Self.berlin) == Self.utcSeconds("2030-03-31T01:30:00Z"))
    #expect(
      try Self.parsed("2030-03-31T01:59", Self.berlin) == Self.utcSeconds("2030-03-31T00:59:00Z"))
    #expect(
      try Self.parsed("2030-03-31T03:00", Self.berlin) == Self.utcSeconds("2030-03-31T01:00:00Z"))
    // New York, 10 March 2030: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    #expect(
      try Self.parsed("2030-03-10T02:15", Self.newYork) == Self.utcSeconds("2030-03-10T07:15:00Z"))
    // Shown back, it reads as the time it became.
    let date = try #require(try DueDateField.parse("2030-03-31T02:30", in: Self.berlin))
    #expect(WallClockTime(date, in: Self.berlin).formValue == "2030-03-31T03:30")
  }

  /// A time the clocks show twice is the first of the two.
  @Test func aTimeInTheHourRepeatedInAutumnIsTheFirst() throws {
    // Berlin, 27 October 2030: 03:00 CEST becomes 02:00 CET (01:00 UTC).
    #expect(
      try Self.parsed("2030-10-27T02:30", Self.berlin) == Self.utcSeconds("2030-10-27T00:30:00Z"))
    #expect(
      try Self.parsed("2030-10-27T03:00", Self.berlin) == Self.utcSeconds("2030-10-27T02:00:00Z"))
    // New York, 3 November 2030: 02:00 EDT becomes 01:00 EST (06:00 UTC).
    #expect(
      try Self.parsed("2030-11-03T01:30", Self.newYork) == Self.utcSeconds("2030-11-03T05:30:00Z"))
  }

  /// Every wall-clock time that exists once in its zone comes back as it
  /// was typed; dates agree with Foundation's Gregorian calendar.
  @Test func typedTimesComeBackAsTypedAcrossZonesAndCenturies() throws {
    var random = SeededGenerator(seed: 13)
    let zones = [
      "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
    ]
    .map { TimeZone(identifier: $0)! }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = Self.utc
    for _ in 0..<2_000 {
      let seconds = Int.random(in: 86_400...253_402_214_399, using: &random)
      let zone = zones.randomElement(using: &random)!
      let date = Date(timeIntervalSince1970: Double(seconds))
      let wall = WallClockTime(date, in: zone)
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second],
        from: date.addingTimeInterval(Double(zone.secondsFromGMT(for: date))))
      #expect(
        [wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second]
          == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second],
        "\(seconds) in \(zone.identifier)")
      let back = try #require(try DueDateField.parse(wall.formValue, in: zone))
      // Only a time of the repeated hour may read as its first instance.
      let earlier = Int(back.timeIntervalSince1970) <= seconds
      #expect(back == date || (earlier && WallClockTime(back, in: zone) == wall), "\(wall)")
    }
  }

  @Test func theFieldsValueIsToTheMinuteUnlessItHasSeconds() {
    let date = Date(timeIntervalSince1970: Self.utcSeconds("2030-05-12T14:30:00Z"))
    #expect(WallClockTime(date, in: Self.berlin).formValue == "2030-05-12T16:30")
    #expect(
      WallClockTime(date.addingTimeInterval(7), in: Self.utc).formValue == "2030-05-12T14:30:07")
    #expect(
      WallClockTime(Date(timeIntervalSince1970: 0), in: Self.utc).formValue == "1970-01-01T00:00")
  }
}

/// A row's due date in words, relative to the day it is shown on.
@Suite struct DueDateLabelTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!

  static func date(_ text: String) -> Date {
    Date(timeIntervalSince1970: DueDateFieldTests.utcSeconds(text))
  }

  @Test func wordsAreRelativeToTheVisitorsDay() {
    // 23:30 in Berlin on 12 May 2030.
    let label = DueDateLabel(zone: Self.berlin, now: Self.date("2030-05-12T21:30:00Z"))
    #expect(label.text(Self.date("2030-05-12T06:00:00Z")) == "Today 08:00")
    #expect(label.text(Self.date("2030-05-12T22:15:00Z")) == "Tomorrow 00:15")
    #expect(label.text(Self.date("2030-05-11T09:00:00Z")) == "Yesterday 11:00")
    #expect(label.text(Self.date("2030-05-20T07:05:00Z")) == "20 May 09:05")
    #expect(label.text(Self.date("2031-01-03T07:00:00Z")) == "3 Jan 2031")
    #expect(label.text(Self.date("1999-12-31T23:00:00Z")) == "1 Jan 2000")
  }

  @Test func theWordsChangeAtTheVisitorsNextMidnight() {
    let label = DueDateLabel(zone: Self.berlin, now: Self.date("2030-05-12T21:30:00Z"))
    #expect(label.nextChange == Self.date("2030-05-12T22:00:00Z"))
    let utc = DueDateLabel(
      zone: TimeZone(identifier: "UTC")!, now: Self.date("2030-05-12T21:30:00Z"))
    #expect(utc.nextChange == Self.date("2030-05-13T00:00:00Z"))
  }

  @Test func theMachineReadableDateIsUTCToTheMinute() {
    #expect(DueDateLabel.machineReadable(Self.date("2030-05-12T14:30:00Z")) == "2030-05-12T14:30Z")
    #expect(
      DueDateLabel.machineReadable(Self.date("2030-05-12T14:30:09Z")) == "2030-05-12T14:30:09Z")
  }

  /// The digits are written by hand (no interpolation): they must read as
  /// `String(number)` padded with zeros would, whatever the number.
  @Test(arguments: [0, 5, 9, 10, 59, 99, 100, 1_970, 9_999, 10_000, 99_999_999, 123_456_789, -5])
  func paddedNumbersReadAsTheirDecimalDigits(number: Int) {
    for width in [2, 4] {
      let digits = String(number)
      let zeros = String(repeating: "0", count: max(width - digits.count, 0))
      let expected = zeros + digits
      #expect(WallClockTime.padded(number, width) == expected)
    }
  }

  @Test func aRowsDueDateIsWrittenInUTCToTheMinuteOrSecond() {
    let date = Date(timeIntervalSince1970: DueDateFieldTests.utcSeconds("2031-01-03T07:05:00Z"))
    #expect(DueDateLabel.machineReadable(date) == "2031-01-03T07:05Z")
    #expect(DueDateLabel.machineReadable(date.addingTimeInterval(9)) == "2031-01-03T07:05:09Z")
    #expect(WallClockTime.clock(hour: 7, minute: 5) == "07:05")
    #expect(WallClockTime.clock(hour: 23, minute: 59) == "23:59")
  }
}
