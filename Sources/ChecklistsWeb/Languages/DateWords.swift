/// How a language writes a due date's words ("Today 14:00", "12 May
/// 18:30", "3 Jan 2027"; "Сегодня 14:00", "12 мая 18:30"; "12. Mai
/// 18:30"), from its catalogue: the month abbreviations and four patterns
/// with `{{day}}`, `{{month}}`, `{{year}}` and `{{time}}`, read into their
/// parts once (a row writes its words without looking a phrase up).
/// Every language here writes the 24-hour clock.
struct DateWords: Sendable {
  /// A pattern's parts, in order, its text as bytes: a row's words are written into one
  /// buffer (appended part by part as strings, with the time a string of its own first, a
  /// dated row's label took ~2,700 instructions; `bench-web --profile N dated`).
  struct Pattern: Sendable {
    enum Part: Sendable {
      case text([UInt8])
      case day, month, year, time
    }
    let parts: [Part]

    init(_ text: String) {
      var parts: [Part] = []
      var rest = Substring(text)
      while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
        if open.lowerBound > rest.startIndex {
          parts.append(.text(Array(rest[..<open.lowerBound].utf8)))
        }
        switch rest[open.upperBound..<close.lowerBound] {
        case "day": parts.append(.day)
        case "month": parts.append(.month)
        case "year": parts.append(.year)
        default: parts.append(.time)
        }
        rest = rest[close.upperBound...]
      }
      if !rest.isEmpty { parts.append(.text(Array(rest.utf8))) }
      self.parts = parts
    }

    /// The pattern filled in: `month` is the month's name as bytes, `time` is written
    /// `HH:MM` from `hour` and `minute`.
    func callAsFunction(
      day: Int = 0, month: [UInt8] = [], year: Int = 0, hour: Int = 0, minute: Int = 0
    ) -> String {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(32)
      for part in parts {
        switch part {
        case .text(let text): bytes += text
        case .day: WallClockTime.append(day, width: 1, to: &bytes)
        case .month: bytes += month
        case .year: WallClockTime.append(year, width: 1, to: &bytes)
        case .time:
          WallClockTime.append(hour, width: 2, to: &bytes)
          bytes.append(UInt8(ascii: ":"))
          WallClockTime.append(minute, width: 2, to: &bytes)
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The months' abbreviations, as bytes for `Pattern`.
  let months: [[UInt8]]
  let today: Pattern
  let tomorrow: Pattern
  let yesterday: Pattern
  /// A date of this year: its day and month, and the time.
  let dayMonthTime: Pattern
  /// A date of another year: its day, month and year.
  let dayMonthYear: Pattern
  /// A day without its time ("27 Nov"), as a repeating item's last done.
  let dayMonth: Pattern
  /// How a row says its item repeats.
  let repeats: RepeatWords

  static let english = DateWords(Catalogue(madeFromEnglish: .english))

  init(_ catalogue: Catalogue) {
    months = Self.englishMonths.map { Array(catalogue.text($0).utf8) }
    today = Pattern(catalogue.text(translatable("Today {{time}}")))
    tomorrow = Pattern(catalogue.text(translatable("Tomorrow {{time}}")))
    yesterday = Pattern(catalogue.text(translatable("Yesterday {{time}}")))
    dayMonthTime = Pattern(catalogue.text(translatable("{{day}} {{month}} {{time}}")))
    dayMonthYear = Pattern(catalogue.text(translatable("{{day}} {{month}} {{year}}")))
    dayMonth = Pattern(catalogue.text(translatable("{{day}} {{month}}")))
    repeats = RepeatWords(catalogue)
  }

  private static let englishMonths = [
    translatable("Jan"), translatable("Feb"), translatable("Mar"), translatable("Apr"),
    translatable("May"), translatable("Jun"), translatable("Jul"), translatable("Aug"),
    translatable("Sep"), translatable("Oct"), translatable("Nov"), translatable("Dec"),
  ]
}
