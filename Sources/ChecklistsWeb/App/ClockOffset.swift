import Foundation

/// A test-only shift of the server's clock: `CHECKLISTS_CLOCK_OFFSET_SECONDS`
/// in `serve`'s environment (a whole or decimal number of seconds, possibly
/// negative) is added to every reading, so an end-to-end test can restart
/// the backend "later" and see a scheduled reset fall due. Never set in
/// production; an unreadable value is refused at start.
package enum ClockOffset {
  package static let variable = "CHECKLISTS_CLOCK_OFFSET_SECONDS"

  /// The clock for `environment`: the system's, or shifted; nil when the
  /// variable is set but not a finite number.
  package static func clock(environment: [String: String]) -> (@Sendable () -> Date)? {
    guard let text = environment[variable], !text.isEmpty else { return { Date() } }
    guard let seconds = Double(text), seconds.isFinite else { return nil }
    return { Date().addingTimeInterval(seconds) }
  }
}
