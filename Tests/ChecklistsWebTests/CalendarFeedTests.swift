import ChecklistsModel
import Foundation
import ICalendar
import Interchange
import Support
import TestSupport
import Testing

@testable import ChecklistsWeb

/// The iCalendar file: its lines (CRLF, folded at 75 octets, escaped),
/// which items become events, and their stable `UID`s.
@Suite struct CalendarFeedTests {
  static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15T15:06:40Z
  static let key = String(repeating: "ab", count: 32)

  /// The content lines of a feed: each physical line checked, then unfolded.
  static func contentLines(_ bytes: [UInt8]) -> [String] {
    var physical: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "\n")
      {
        physical.append(current)
        current = []
        index += 2
        continue
      }
      #expect(bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r"))
      current.append(bytes[index])
      index += 1
    }
    #expect(current.isEmpty, "the file ends with CRLF")
    var lines: [[UInt8]] = []
    for line in physical {
      #expect(line.count <= 75, "\(String(decoding: line, as: UTF8.self))")
      // Never folded inside a UTF-8 sequence: each physical line is text.
      #expect(String(validating: line, as: UTF8.self) != nil)
      if line.first == UInt8(ascii: " ") {
        lines[lines.count - 1] += line.dropFirst()
      } else {
        lines.append(line)
      }
    }
    return lines.map { String(decoding: $0, as: UTF8.self) }
  }

  /// A TEXT value with its escapes undone.
  static func unescape(_ value: Substring) -> String {
    var result = ""
    var escaped = false
    for character in value {
      if escaped {
        result.append(character == "n" || character == "N" ? "\n" : character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  static func values(_ name: String, in lines: [String]) -> [String] {
    lines.filter { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
  }

  /// A model with one list and the given items (text, due in seconds from
  /// `now`, remind, checked).
  static func model(_ items: [(String, TimeInterval?, Bool, Bool)], listName: String = "Errands")
    throws -> DataModel
  {
    var model = DataModel()
    let list = try model.addList(name: listName, icon: .folder)
    for (text, due, remind, checked) in items {
      let id = try model.addItem(text: text, toList: list)
      try model.editItem(
        id: id, inList: list, text: text, dueDate: due.map { now.addingTimeInterval($0) },
        shouldRemind: remind)
      if checked { _ = try model.toggleItem(id: id, inList: list) }
    }
    return model
  }

  static func feed(_ model: DataModel, key: String = key, storedAt: Int64 = 1_700_000_000)
    -> CalendarFeed
  {
    CalendarFeed(model: model, visitorKey: key, now: now, storedAt: storedAt)
  }

  @Test func theCalendarHasItsRequiredPropertiesAndCRLFLines() throws {
    let lines = Self.contentLines(
      Self.feed(try Self.model([("Milk", 3_600, true, false)])).render())
    #expect(lines.first == "BEGIN:VCALENDAR" && lines.last == "END:VCALENDAR")
    for property in [
      "VERSION:2.0", "CALSCALE:GREGORIAN", "X-WR-CALNAME:Checklists", "BEGIN:VEVENT",
      "END:VEVENT", "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM",
      "TRIGGER;RELATED=START:PT0S", "DURATION:PT15M", "DTSTART:20250615T160640Z",
      "DTSTAMP:20231114T221320Z", "SUMMARY:Milk (Errands)", "DESCRIPTION:Milk",
    ] {
      #expect(lines.contains(property), "\(property)")
    }
    #expect(lines.contains { $0.hasPrefix("PRODID:") })
    // Components nest properly.
    var depth: [String] = []
    for line in lines {
      if line.hasPrefix("BEGIN:") { depth.append(String(line.dropFirst(6))) }
      if line.hasPrefix("END:") { #expect(depth.popLast() == String(line.dropFirst(4))) }
    }
    #expect(depth.isEmpty)
  }

  @Test func onlyUncheckedRemindedItemsDueLaterAreEvents() throws {
    let model = try Self.model([
      ("later", 60, true, false),
      ("past", -60, true, false),
      ("now", 0, true, false),
      ("no reminder", 60, false, false),
      ("checked", 60, true, true),
      ("undated", nil, true, false),
      ("much later", 86_400 * 365 * 100, true, false),
    ])
    let lines = Self.contentLines(Self.feed(model).render())
    #expect(Self.values("SUMMARY", in: lines) == ["later (Errands)", "much later (Errands)"])
    #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
    #expect(lines.filter { $0 == "BEGIN:VALARM" }.count == 2)
  }

  @Test func aPassedDueDateIsWhenTheFeedLastChanged() throws {
    let model = try Self.model([("past", -60, true, false), ("later", 60, true, false)])
    let nowSeconds = Int64(Self.now.timeIntervalSince1970)
    #expect(Self.feed(model, storedAt: nowSeconds - 3_600).lastModified == nowSeconds - 60)
    #expect(Self.feed(model, storedAt: nowSeconds - 10).lastModified == nowSeconds - 10)
    // An item without a reminder never was in the feed: its date does not count.
    let quiet = try Self.model([("past", -60, false, false)])
    #expect(Self.feed(quiet, storedAt: nowSeconds - 3_600).lastModified == nowSeconds - 3_600)
    // DTSTAMP is that moment, so the same state renders the same bytes.
    let feed = Self.feed(model, storedAt: nowSeconds - 3_600)
    #expect(feed.render() == Self.feed(model, storedAt: nowSeconds - 3_600).render())
    #expect(Self.values("DTSTAMP", in: Self.contentLines(feed.render())) == ["20250615T150540Z"])
  }

  @Test func textIsEscapedAndLongLinesAreFoldedAtCharacterBoundaries() throws {
    let tricky = #"Buy milk, eggs; bread \ butter"#
    let long = Array(repeating: "Ünïcødé ✓ 😀", count: 20).joined(separator: " ")
    let listName = "Home; garden, shed"
    let model = try Self.model(
      [(tricky, 60, true, false), (long, 120, true, false)], listName: listName)
    let bytes = Self.feed(model).render()
    let lines = Self.contentLines(bytes)
    let summaries = Self.values("SUMMARY", in: lines).map { Self.unescape($0[...]) }
    #expect(summaries == ["\(tricky) (\(listName))", "\(long) (\(listName))"])
    #expect(lines.contains(#"DESCRIPTION:Buy milk\, eggs\; bread \\ butter"#))
    // The long one was folded into several physical lines.
    #expect(bytes.count > lines.joined(separator: "\r\n").utf8.count + 2)
  }

  @Test func controlCharactersAndLineBreaksNeverBreakALine() {
    var writer = ICalendarWriter()
    writer.textLine("SUMMARY", "one\ntwo\r\nthree\u{7}four\tfive")
    let lines = Self.contentLines(writer.bytes)
    #expect(lines == ["SUMMARY:one\\ntwo\\nthree four\tfive"])
  }

  @Test func foldingKeepsEscapesAndSequencesWhole() {
    for length in 60..<80 {
      for filler in ["a", "é", "✓", "😀", ",", "\\"] {
        var writer = ICalendarWriter()
        let text =
          String(repeating: "x", count: length % 7) + String(repeating: filler, count: length)
        writer.textLine("DESCRIPTION", text)
        let lines = Self.contentLines(writer.bytes)
        #expect(lines.count == 1)
        #expect(Self.unescape(Self.values("DESCRIPTION", in: lines)[0][...]) == text)
      }
    }
  }

  @Test func aUIDIsStableThroughEditsAndMovesAndRevealsNoSecret() throws {
    var model = try Self.model([("Milk", 60, true, false), ("Eggs", 120, true, false)])
    let list = model.lists[0].id
    let milk = model.lists[0].items[0].id
    let eggs = model.lists[0].items[1].id
    func uids(_ model: DataModel) -> [String: String] {
      let feed = Self.feed(model)
      return Dictionary(
        uniqueKeysWithValues: feed.events.map { ($0.item.text, feed.uid(of: $0.item)) })
    }
    let before = uids(model)
    #expect(Set(before.values).count == 2)
    try model.editItem(
      id: milk, inList: list, text: "Oat milk", dueDate: Self.now.addingTimeInterval(7_200),
      shouldRemind: true)
    try model.moveItem(id: eggs, inList: list, to: .before(itemID: milk))
    let after = uids(model)
    #expect(after["Oat milk"] == before["Milk"])
    #expect(after["Eggs"] == before["Eggs"])
    // Another visitor's items get other UIDs; none shows the key.
    let other = CalendarFeed(
      model: model, visitorKey: String(repeating: "cd", count: 32), now: Self.now,
      storedAt: 0)
    #expect(
      other.uid(of: model.lists[0].items[0]) != Self.feed(model).uid(of: model.lists[0].items[0]))
    for uid in after.values {
      #expect(!uid.contains(Self.key) && !uid.contains(String(Self.key.prefix(16))))
      #expect(uid.utf8.count < 75)
    }
  }

  @Test func aThousandEventsRender() throws {
    var model = DataModel()
    let list = try model.addList(name: "Many", icon: .folder)
    for number in 0..<1_000 {
      let id = try model.addItem(text: "item \(number)", toList: list)
      try model.editItem(
        id: id, inList: list, text: "item \(number)",
        dueDate: Self.now.addingTimeInterval(Double(number + 1) * 60), shouldRemind: true)
    }
    let lines = Self.contentLines(Self.feed(model).render())
    #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1_000)
    #expect(Set(Self.values("UID", in: lines)).count == 1_000)
  }

  @Test func utcTimeAgreesWithFoundation() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var generator = SeededGenerator(seed: 5545)
    let samples: [Int64] =
      [0, 59, 86_399, 86_400, 951_782_400, 253_402_300_799, -1, -86_401]
      + (0..<2_000).map { _ in Int64.random(in: 0...253_402_300_799, using: &generator) }
    for seconds in samples {
      let time = UTCTime(secondsSince1970: seconds)
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second, .weekday],
        from: Date(timeIntervalSince1970: TimeInterval(seconds)))
      #expect(
        [time.year, time.month, time.day, time.hour, time.minute, time.second, time.weekday + 1]
          == [
            parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second,
            parts.weekday,
          ], "\(seconds)")
      #expect(
        UTCTime.secondsSince1970(
          year: time.year, month: time.month, day: time.day, hour: time.hour,
          minute: time.minute, second: time.second) == seconds)
    }
  }

  @Test func httpDatesAreWrittenAndReadAsIMFFixdate() {
    #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    for unreadable in [
      "", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
      "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
      "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "garbage",
    ] {
      #expect(HTTPDate.parse(unreadable) == nil, "\(unreadable)")
    }
  }
}
