import FastCGI
import Storage

/// A front stage, after `MemoLookup`: a shared list's page kept whole
/// (`SharedMemo` keeps it) answered before the request is routed and the
/// shared group's stages are run, as a visitor's kept page is. It costs
/// one pass over the path's bytes (`/s/` and 32 lower-case hex digits), a
/// look-up keyed by the path itself and one `stat`: a kept shared page took
/// 22,500 instructions through the route table and the group, ~14,000
/// here with the token's SHA-256 in hex as the key and the checks done on
/// the string's views, where the owner's kept page takes about 4,700
/// (callgrind, `bench-web --profile N shared-kept`).
///
/// A miss leaves the key in `Arrival.sharedPageKey`, so that `SharedMemo`
/// keeps the page computed behind it without making it again.
struct SharedMemoLookup: Stage {
  let memo: ResponseMemo

  func respond(to request: Request, context: Arrival, next: Next<Arrival>) throws -> Response {
    var acceptLanguage: Int?
    // The whole target: a page's path with nothing after it, so with no
    // query (a `?` is no hex digit), and no search for one is needed.
    let target = request.head.path ?? ""
    guard Self.isPagePath(target),
      let key = ResponseMemo.Key(sharedPage: request, path: target, acceptLanguage: &acceptLanguage)
    else { return try next(request, context) }
    if let kept = memo.entry(for: key, now: Int64(context.now.timeIntervalSince1970)),
      kept.answers(request, acceptLanguageField: acceptLanguage)
    {
      context.route?.record(kept.route)
      return memo.answer(kept, for: key, to: request)
    }
    var arrival = context
    arrival.sharedPageKey = key
    return try next(request, arrival)
  }

  /// True for the path (or whole target) of a shared list's page, `/s/{secret}` (the one
  /// shared route the memo keeps): `/s/` and a token `ShareToken.isWellFormed`
  /// takes, read in place in one pass (a further `/` is no hex digit). A
  /// path whose bytes are not contiguous (never one FastCGI made) is
  /// left to the route table.
  static func isPagePath(_ path: String) -> Bool {
    let prefix = SharedPages.prefix.utf8.count
    return path.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.count == prefix + ShareToken.textLength
        && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "s")
        && bytes[2] == UInt8(ascii: "/")
        && ShareToken.isWellFormed(UnsafeBufferPointer(rebasing: bytes[prefix...]))
    } ?? false
  }
}
