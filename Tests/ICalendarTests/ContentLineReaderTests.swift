import Testing

@testable import ICalendar

/// Content lines: unfolding, names, parameters (quoted and not), values,
/// and every refusal with the line it is on.
@Suite struct ContentLineReaderTests {
  static func read(_ text: String) throws(ICalendarError) -> [ContentLine] {
    try ContentLineReader.read(Array(text.utf8))
  }

  @Test func readsNameParametersAndValueKeepingTheLineAsWritten() throws {
    let lines = try Self.read(
      "due;tzid=Europe/Berlin;X-Note=\"a;b:c,d\",plain:20250301T170000\r\nSUMMARY:Milk\r\n")
    #expect(lines.count == 2)
    #expect(lines[0].name == "DUE")
    #expect(
      lines[0].parameters == [
        .init(name: "TZID", values: ["Europe/Berlin"]),
        .init(name: "X-NOTE", values: ["a;b:c,d", "plain"]),
      ])
    #expect(lines[0].value == "20250301T170000")
    #expect(lines[0].text == "due;tzid=Europe/Berlin;X-Note=\"a;b:c,d\",plain:20250301T170000")
    #expect(lines[1].parameter("TZID") == nil)
  }

  @Test func unfoldsContinuationsEvenInsideAUTF8Sequence() throws {
    let bytes: [UInt8] =
      Array("SUMMARY:Gr".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xBC] + Array("n\r\n\tTee\nX:1".utf8)
    let lines = try ContentLineReader.read(bytes)
    #expect(lines.map(\.value) == ["GrünTee", "1"])
  }

  @Test func unescapesText() throws {
    let line = try Self.read(#"SUMMARY:a\, b\; c\\d\nnext\N\x"#)[0]
    #expect(line.textValue == "a, b; c\\d\nnext\n\\x")
  }

  @Test(arguments: [
    ("SUMMARY", ICalendarError.malformedLine(line: 1, reason: "':' expected after SUMMARY")),
    ("SUM MARY:x", .malformedLine(line: 1, reason: "':' expected after SUM")),
    (":x", .malformedLine(line: 1, reason: "a name of letters, digits and '-' expected")),
    ("A;B:x", .malformedLine(line: 1, reason: "'=' expected after B")),
    ("A;B=\"open:x", .malformedLine(line: 1, reason: "a quoted parameter value is not closed")),
    ("A;B=x\"y:z", .malformedLine(line: 1, reason: "a parameter value holds a quote or control")),
    ("A:ok\r\nB:bell\u{07}", .malformedLine(line: 2, reason: "a control character in the value")),
    (" A:x", .malformedLine(line: 1, reason: "it starts with a space")),
  ])
  func refusesWhatIsOutsideTheGrammar(text: String, error: ICalendarError) {
    #expect(throws: error) { try Self.read(text) }
  }

  @Test func refusesWhatIsNotUTF8() {
    #expect(throws: ICalendarError.malformedLine(line: 1, reason: "it is not UTF-8")) {
      try ContentLineReader.read(Array("A:".utf8) + [0xFF])
    }
  }

  @Test func isBoundedInSizeLinesLineLengthAndParameters() {
    let limit = ICalendarLimits.maximumBytes
    #expect(throws: ICalendarError.tooLarge(limit: limit)) {
      try ContentLineReader.read([UInt8](repeating: UInt8(ascii: "A"), count: limit + 1))
    }
    let many = String(repeating: "A:1\n", count: ICalendarLimits.maximumLines + 1)
    #expect(throws: ICalendarError.tooManyLines(limit: ICalendarLimits.maximumLines)) {
      try Self.read(many)
    }
    #expect(throws: Never.self) {
      try Self.read(String(repeating: "A:1\n", count: ICalendarLimits.maximumLines))
    }
    let long = "A:1\nB:" + String(repeating: "x", count: ICalendarLimits.maximumLineOctets)
    #expect(throws: ICalendarError.lineTooLong(line: 2, limit: ICalendarLimits.maximumLineOctets)) {
      try Self.read(long)
    }
    let parameters = "A" + String(repeating: ";P=1", count: ICalendarLimits.maximumParameters + 1)
    #expect(
      throws: ICalendarError.malformedLine(
        line: 1, reason: "more than \(ICalendarLimits.maximumParameters) parameters")
    ) { try Self.read(parameters + ":x") }
  }
}

/// Components: pairs of BEGIN and END, nesting, and what stands outside.
@Suite struct ComponentTests {
  static func parse(_ text: String) throws(ICalendarError) -> Component {
    try Component.parse(try ContentLineReader.read(Array(text.utf8)))
  }

  @Test func nestsComponentsAndGivesBackEveryLine() throws {
    let text =
      "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:vtodo\nUID:1\nBEGIN:VALARM\nACTION:DISPLAY\nEND:VALARM\nEND:VTODO\nEND:VCALENDAR"
    let calendar = try Self.parse(text)
    #expect(calendar.name == "VCALENDAR")
    #expect(calendar.components.map(\.name) == ["VTODO"])
    #expect(calendar.components[0].components.map(\.name) == ["VALARM"])
    #expect(calendar.lines.map(\.text).joined(separator: "\n") == text)
  }

  @Test(arguments: [
    ("", ICalendarError.empty),
    ("VERSION:2.0", .unbalanced(line: 1, reason: "BEGIN expected, found VERSION")),
    (
      "BEGIN:VCALENDAR\nEND:VTODO", .unbalanced(line: 2, reason: "END:VTODO closes BEGIN:VCALENDAR")
    ),
    (
      "BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VTODO",
      .unbalanced(line: 3, reason: "BEGIN:VCALENDAR is never ended")
    ),
    ("BEGIN:A\nEND:A\nBEGIN:A\nEND:A", .unbalanced(line: 3, reason: "a line after the END of A")),
    ("BEGIN:\nEND:", .malformedLine(line: 1, reason: "BEGIN needs a component name")),
    (
      "BEGIN:A\nBEGIN:B\nBEGIN:C\nBEGIN:D\nBEGIN:E\nEND:E\nEND:D\nEND:C\nEND:B\nEND:A",
      .tooDeep(line: 5, limit: 4)
    ),
  ])
  func refusesUnbalancedOrTooDeepComponents(text: String, error: ICalendarError) {
    #expect(throws: error) { try Self.parse(text) }
  }
}

/// `DATE` and `DATE-TIME` values in their three forms.
@Suite struct DateTimeValueTests {
  static func value(_ text: String) throws -> DateTimeValue? {
    DateTimeValue(try ContentLineReader.read(Array(text.utf8))[0])
  }

  @Test func readsTheThreeForms() throws {
    #expect(
      try Self.value("DUE;VALUE=DATE:20240229")
        == DateTimeValue(form: .date, year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0))
    #expect(
      try Self.value("DUE:20250301T170000Z")
        == DateTimeValue(form: .utc, year: 2025, month: 3, day: 1, hour: 17, minute: 0, second: 0))
    #expect(
      try Self.value("DUE;TZID=Europe/Berlin:20250301T170059")
        == DateTimeValue(
          form: .local(zoneID: "Europe/Berlin"), year: 2025, month: 3, day: 1, hour: 17,
          minute: 0, second: 59))
    #expect(try Self.value("DUE:20250301T170000")?.form == .local(zoneID: nil))
  }

  @Test(arguments: [
    "DUE:20250229", "DUE:2025-03-01", "DUE:20251301T000000Z", "DUE:20250301T240000Z",
    "DUE;VALUE=DATE:20250301T170000Z", "DUE:20250301T170000X", "DUE:20250301T1700",
    "DUE;VALUE=DATE-TIME:20250301", "DUE:+0250301",
  ])
  func refusesAnythingElse(text: String) throws {
    #expect(try Self.value(text) == nil)
  }
}
