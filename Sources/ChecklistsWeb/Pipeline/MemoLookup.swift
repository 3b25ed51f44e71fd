import FastCGI

/// The first stage that may answer: a returning visitor's repeated `GET`
/// is answered with the whole answer kept for it (see `ResponseMemo`),
/// before the request is routed or a cookie is parsed (~3 µs in
/// `bench-web`). A miss leaves the key to `MemoKeep`, which keeps the
/// answer computed behind it.
struct MemoLookup: Stage {
  let memo: ResponseMemo

  func respond(to request: Request, context: Arrival, next: Next<Arrival>) throws -> Response {
    var acceptLanguage: Int?
    guard let key = ResponseMemo.Key(request, acceptLanguage: &acceptLanguage) else {
      return try next(request, context)
    }
    if let kept = memo.entry(for: key, now: Int64(context.now.timeIntervalSince1970)),
      kept.answers(request, acceptLanguageField: acceptLanguage)
    {
      context.route?.record(kept.route)
      return memo.answer(kept, for: key, to: request)
    }
    var arrival = context
    arrival.memoKey = key
    return try next(request, arrival)
  }
}
