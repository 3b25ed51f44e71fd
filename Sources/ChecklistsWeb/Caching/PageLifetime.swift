import Foundation

/// Until when a screen's page stays the right answer to the same request
/// while the visitor's files stay the same: a page that says "Overdue" or
/// "Today" changes with the clock too. A handler shortens it
/// (`ends(at:)`); `ResponseMemo` keeps the page no longer than that.
final class PageLifetime {
  /// Nil while nothing on the page depends on the time.
  private(set) var end: Date?

  /// The page is no longer right from `date` on.
  func ends(at date: Date) {
    end = min(end ?? date, date)
  }

  /// `end` as the memo counts (whole seconds since 1970; the page is right
  /// while the current second is below it), or `Int64.max`.
  var endSecond: Int64 {
    guard let end else { return .max }
    return Int64(end.timeIntervalSince1970.rounded(.up))
  }
}
