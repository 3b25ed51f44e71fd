import Foundation

/// When a page stops being right by itself, with no file changed: a due
/// date passing turns an item overdue. A screen says so while it renders,
/// and `ResponseMemo` keeps the page no longer than that.
///
/// Used by one request on one thread.
final class PageLifetime {
  /// The earliest moment any part of the page changes; nil: never by itself.
  private(set) var end: Date?

  /// The page changes by itself at `date`.
  func ends(at date: Date) {
    if let end, end <= date { return }
    end = date
  }

  /// `until` (seconds since 1970), or earlier when the page ends before.
  func bound(_ until: Int64) -> Int64 {
    guard let end else { return until }
    return min(until, Int64(end.timeIntervalSince1970.rounded(.up)))
  }
}
