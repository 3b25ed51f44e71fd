import Support

/// Why a calendar resource was refused, with the line it was found on
/// (counted from 1, as an editor shows it, after unfolding).
package enum ICalendarError: Error, Equatable, Sendable {
  /// The resource is larger than `ICalendarLimits.maximumBytes`.
  case tooLarge(limit: Int)
  /// It holds more than `ICalendarLimits.maximumLines` content lines.
  case tooManyLines(limit: Int)
  /// A content line, unfolded, is longer than `ICalendarLimits.maximumLineOctets`.
  case lineTooLong(line: Int, limit: Int)
  /// A content line is not `NAME;PARAM=VALUE:VALUE` (the reason says where it fails).
  case malformedLine(line: Int, reason: FilledPhrase)
  /// A component is nested deeper than `ICalendarLimits.maximumDepth`.
  case tooDeep(line: Int, limit: Int)
  /// `BEGIN` and `END` do not pair up, or something stands outside the one component.
  case unbalanced(line: Int, reason: FilledPhrase)
  /// The resource holds no content line at all.
  case empty

  /// The refusal in an English sentence, for a log line (and the tests).
  package var message: String { text { $0 } }

  /// The refusal in a sentence, each catalogue phrase (the sentence and its reason)
  /// worded by `translate`: a CalDAV answer says it in the client's language.
  package func text(_ translate: (String) -> String) -> String {
    switch self {
    case .tooLarge(let limit):
      FilledPhrase(
        translatable("the calendar data is larger than {{limit}} bytes"),
        ["limit": String(limit)]
      ).text(translate)
    case .tooManyLines(let limit):
      FilledPhrase(
        translatable("the calendar data has more than {{limit}} lines"),
        ["limit": String(limit)]
      ).text(translate)
    case .lineTooLong(let line, let limit):
      FilledPhrase(
        translatable("line {{line}} is longer than {{limit}} bytes"),
        ["line": String(line), "limit": String(limit)]
      ).text(translate)
    case .malformedLine(let line, let reason):
      FilledPhrase(
        // Translators: a calendar app's to-do refused; {{reason}} is one of the
        // iCalendar reader's reasons ("':' expected after SUMMARY").
        translatable("line {{line}} is malformed: {{reason}}"),
        ["line": String(line), "reason": reason.text(translate)]
      ).text(translate)
    case .tooDeep(let line, let limit):
      FilledPhrase(
        translatable("line {{line}} nests components more than {{limit}} deep"),
        ["line": String(line), "limit": String(limit)]
      ).text(translate)
    case .unbalanced(let line, let reason):
      FilledPhrase(
        // Translators: {{reason}} says how BEGIN and END fail to pair up
        // ("BEGIN:VTODO is never ended"); iCalendar names stay as spelled.
        translatable("line {{line}}: {{reason}}"),
        ["line": String(line), "reason": reason.text(translate)]
      ).text(translate)
    case .empty: translate(translatable("the calendar data is empty"))
    }
  }
}

/// Marks an English phrase for the catalogues, as gettext's `N_()` does: it returns the
/// phrase unchanged; `checklists translations` finds it in the source by this name.
func translatable(_ english: String) -> String { english }

/// What one calendar resource may hold: a to-do is a few hundred bytes, and
/// each bound keeps a hostile one from costing more than a small file does.
package enum ICalendarLimits {
  /// Bytes of one resource: the FastCGI server's body cap for DAV requests.
  package static let maximumBytes = 64 * 1024
  /// Content lines of one resource (a to-do with many alarms is a few dozen).
  package static let maximumLines = 2_000
  /// Octets of one content line after unfolding (a long note in `DESCRIPTION`).
  package static let maximumLineOctets = 32 * 1024
  /// Parameters on one content line.
  package static let maximumParameters = 32
  /// Components one inside another: `VCALENDAR` ▸ `VTODO` ▸ `VALARM` is three;
  /// one more for a client's own `X-` component.
  package static let maximumDepth = 4
}
