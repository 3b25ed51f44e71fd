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
  case malformedLine(line: Int, reason: String)
  /// A component is nested deeper than `ICalendarLimits.maximumDepth`.
  case tooDeep(line: Int, limit: Int)
  /// `BEGIN` and `END` do not pair up, or something stands outside the one component.
  case unbalanced(line: Int, reason: String)
  /// The resource holds no content line at all.
  case empty

  /// The refusal in a sentence, for a response body or a log line.
  package var message: String {
    switch self {
    case .tooLarge(let limit): "the calendar data is larger than \(limit) bytes"
    case .tooManyLines(let limit): "the calendar data has more than \(limit) lines"
    case .lineTooLong(let line, let limit): "line \(line) is longer than \(limit) bytes"
    case .malformedLine(let line, let reason): "line \(line) is malformed: \(reason)"
    case .tooDeep(let line, let limit):
      "line \(line) nests components more than \(limit) deep"
    case .unbalanced(let line, let reason): "line \(line): \(reason)"
    case .empty: "the calendar data is empty"
    }
  }
}

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
