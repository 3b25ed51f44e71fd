import Foundation
import ICalendar
import Testing

@testable import ChecklistsWeb

/// A to-do against a `time-range`: each row of RFC 4791 §9.9's table for
/// `VTODO` at its edges, a recurring to-do from its first instance on, and
/// the dates read from a to-do's lines (a `DURATION`, a zone, a floating
/// time in the owner's zone).
@Suite struct TodoTimesTests {
  static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

  /// Whether `times` overlaps each `(start, end, expected)` range.
  static func check(
    _ times: TodoTimes, _ cases: [(Double, Double, Bool)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (start, end, expected) in cases {
      #expect(
        times.overlaps(start: at(start), end: at(end)) == expected, "\(start)..<\(end)",
        sourceLocation: sourceLocation)
    }
  }

  /// DTSTART and DURATION: (start <= DTSTART+DURATION) AND
  /// ((end > DTSTART) OR (end >= DTSTART+DURATION)).
  @Test func startAndDuration() {
    Self.check(
      TodoTimes(start: Self.at(100), durationEnd: Self.at(200)),
      [
        (40, 99, false), (40, 100, false), (40, 101, true), (150, 160, true), (200, 250, true),
        (201, 250, false), (0, 1_000, true),
      ])
  }

  /// DTSTART and DUE: ((start < DUE) OR (start <= DTSTART)) AND
  /// ((end > DTSTART) OR (end >= DUE)).
  @Test func startAndDue() {
    Self.check(
      TodoTimes(start: Self.at(100), due: Self.at(200)),
      [(40, 100, false), (40, 101, true), (150, 160, true), (199, 250, true), (200, 250, false)])
  }

  /// DTSTART alone: (start <= DTSTART) AND (end > DTSTART).
  @Test func startAlone() {
    Self.check(
      TodoTimes(start: Self.at(100)),
      [(40, 100, false), (40, 101, true), (100, 150, true), (101, 150, false)])
  }

  /// DUE alone: (start < DUE) AND (end >= DUE).
  @Test func dueAlone() {
    Self.check(
      TodoTimes(due: Self.at(200)),
      [(150, 199, false), (150, 200, true), (199, 250, true), (200, 250, false)])
  }

  /// COMPLETED and CREATED: ((start <= CREATED) OR (start <= COMPLETED))
  /// AND ((end >= CREATED) OR (end >= COMPLETED)).
  @Test func completedAndCreated() {
    Self.check(
      TodoTimes(completed: Self.at(200), created: Self.at(100)),
      [(40, 99, false), (40, 100, true), (150, 160, true), (200, 250, true), (201, 250, false)])
  }

  /// COMPLETED alone: (start <= COMPLETED) AND (end >= COMPLETED).
  @Test func completedAlone() {
    Self.check(
      TodoTimes(completed: Self.at(200)),
      [(150, 199, false), (150, 200, true), (200, 250, true), (201, 250, false)])
  }

  /// CREATED alone: (end > CREATED); an open to-do stays open after.
  @Test func createdAlone() {
    Self.check(
      TodoTimes(created: Self.at(100)), [(40, 100, false), (40, 101, true), (500, 600, true)])
  }

  /// None of them: every range.
  @Test func noDates() {
    Self.check(TodoTimes(), [(0, 1, true), (500, 600, true)])
  }

  /// A recurring to-do is taken from its first instance on.
  @Test func aRecurringToDoRunsOnFromItsFirst() {
    Self.check(
      TodoTimes(start: Self.at(100), recurs: true),
      [(40, 100, false), (40, 101, true), (500, 600, true)])
  }

  static func todo(_ lines: String) throws -> Component {
    try Component.parse(
      ContentLineReader.read(Array("BEGIN:VTODO\r\nUID:x\r\n\(lines)END:VTODO\r\n".utf8)))
  }

  @Test func readsTheDatesOfAToDosLines() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    // 2025-03-01 10:00 in Berlin is 09:00 UTC (1,740,819,600).
    let timed = TodoTimes(
      try Self.todo("DTSTART;TZID=Europe/Berlin:20250301T100000\r\nDURATION:PT1H\r\n"), zone: .gmt)
    #expect(timed == TodoTimes(start: Self.at(1_740_819_600), durationEnd: Self.at(1_740_823_200)))
    let floating = TodoTimes(
      try Self.todo("DUE:20250301T100000\r\nRRULE:FREQ=DAILY\r\n"), zone: berlin)
    #expect(floating == TodoTimes(due: Self.at(1_740_819_600), recurs: true))
    let allDay = TodoTimes(
      try Self.todo(
        "DTSTART;VALUE=DATE:20250301\r\nDURATION:P1D\r\nCOMPLETED:20250302T000000Z\r\n"),
      zone: berlin)
    #expect(
      allDay
        == TodoTimes(
          start: Self.at(1_740_783_600), durationEnd: Self.at(1_740_870_000),
          completed: Self.at(1_740_873_600)))
    // What does not read is absent: a DURATION without DTSTART, a bad date.
    let unread = TodoTimes(try Self.todo("DURATION:PT1H\r\nDUE:2025\r\nCREATED:x\r\n"), zone: .gmt)
    #expect(unread == TodoTimes())
  }
}
