import Foundation

/// What every request carries from the front stages to its group: the
/// moment it is answered at, and the key the memo found nothing under.
struct Arrival {
  /// Every screen judges "overdue" and "today", and the memo and the
  /// conditional `GET` their times, by this one clock reading.
  let now: Date
  /// The memo's key of a `GET` with the visitor's cookies (nil otherwise),
  /// worked out once by `MemoLookup` for `MemoKeep`.
  var memoKey: ResponseMemo.Key?
}
