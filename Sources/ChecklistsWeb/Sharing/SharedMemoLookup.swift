import FastCGI
import Storage

/// A front stage, after `MemoLookup`: a shared list's page kept whole
/// (`SharedMemo` keeps it) answered before the request is routed and the
/// shared group's stages are run, as a visitor's kept page is. It costs
/// the token's digest (the memo never compares a presented token byte by
/// byte), a look-up and one `stat`: a kept shared page took 22,500
/// instructions through the route table and the group, where the owner's
/// kept page takes about 6,000 (callgrind, `bench-web --profile N
/// shared-kept`).
///
/// A miss leaves the key in `Arrival.sharedPageKey`, so that `SharedMemo`
/// keeps the page computed behind it without looking it up again.
struct SharedMemoLookup: Stage {
  let memo: ResponseMemo

  func respond(to request: Request, context: Arrival, next: Next<Arrival>) throws -> Response {
    var acceptLanguage: Int?
    guard let token = Self.pageToken(request.path), ShareToken.isWellFormed(token.utf8),
      let key = ResponseMemo.Key(
        sharedPage: SecretDigest.of(String(token)), request, acceptLanguage: &acceptLanguage)
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

  /// What follows `/s/` in a path: the token of a shared list's page,
  /// `/s/{secret}` (the one shared route the memo keeps), when
  /// `ShareToken.isWellFormed` takes it (a further `/` is no hex digit).
  static func pageToken(_ path: String) -> Substring? {
    guard path.utf8.starts(with: SharedPages.prefix.utf8) else { return nil }
    return path.dropFirst(SharedPages.prefix.count)
  }
}
