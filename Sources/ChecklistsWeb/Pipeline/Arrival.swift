import Foundation

/// What every request carries from the front stages to its group: the
/// moment it is answered at, the key the memo found nothing under, and
/// where to say which route answers it.
struct Arrival {
  /// Every screen judges "overdue" and "today", and the memo and the
  /// conditional `GET` their times, by this one clock reading.
  let now: Date
  /// The memo's key of a `GET` with the visitor's cookies (nil otherwise),
  /// worked out once by `MemoLookup` for `MemoKeep`.
  var memoKey: ResponseMemo.Key?
  /// The shared memo's key of a shared list's page that `SharedMemoLookup`
  /// found nothing under (nil otherwise), for `SharedMemo` to keep it.
  var sharedPageKey: ResponseMemo.Key?
  /// Where `MemoLookup` (a hit: the route that computed it) and
  /// `RouteGroups` (the route matched) write the route the request
  /// metrics count the answer under; nil when no metrics are kept.
  var route: RouteSlot?
}

/// The route that answers a request, as `Application.respond` reads it
/// back after the stages (see `Arrival.route`): a pointer to a local of
/// its own, valid while the request is answered, rather than an object
/// made for every request.
struct RouteSlot {
  private let position: UnsafeMutablePointer<Int>

  init(_ position: UnsafeMutablePointer<Int>) {
    self.position = position
  }

  /// Says the route at `position` in the route table answers.
  func record(_ position: Int) {
    self.position.pointee = position
  }
}
