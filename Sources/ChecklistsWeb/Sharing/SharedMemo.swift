import FastCGI
import Storage

/// A shared list's page (`revisited`) kept whole, keyed by its path (the
/// token's bytes: see `ResponseMemo.Key.init(sharedPage:)`) and valid while the owner's directory keeps the identity it had
/// before the page was computed: every file the page comes from
/// (`Checklists.plist`, `Shares.plist`, `Preferences.plist` for the time
/// zone) is only ever replaced by a rename in it. So a revalidation of an
/// unchanged page (what an open page's polling sends every few seconds)
/// costs a look-up and one `stat`, answered in front of the
/// route table by `SharedMemoLookup`; this stage looks a page up only
/// when that one did not (a request that reached the group some other way).
struct SharedMemo: Stage {
  let memo: ResponseMemo
  let shares: ShareLinks

  func respond(to request: Request, context call: SharedCall, next: Next<SharedCall>) throws
    -> Response
  {
    var acceptLanguage: Int?
    guard call.match.route.isRevisited,
      let key = call.arrival.sharedPageKey
        ?? ResponseMemo.Key(sharedPage: request, acceptLanguage: &acceptLanguage)
    else { return try next(request, call) }
    // Looked up already in front (`SharedMemoLookup`) when it left the key.
    if call.arrival.sharedPageKey == nil,
      let kept = memo.entry(for: key, now: Int64(call.arrival.now.timeIntervalSince1970)),
      kept.answers(request, acceptLanguageField: acceptLanguage)
    {
      return memo.answer(kept, for: key, to: request)
    }
    guard let owner = try shares.owner(ofDigest: call.digest) else { throw WebError.pageNotFound }
    // Taken before anything of the owner's is read (see `ResponseMemo`).
    let version = memo.version(of: owner.path, now: call.arrival.now)
    var call = call
    call.owner = owner
    let response = try next(request, call)
    if let version {
      // In the browser's language: given again only to the same header.
      return memo.keep(
        response, version: version, until: call.lifetime.bound(.max), for: key,
        route: call.match.position,
        acceptLanguage: request.headerFields.value(of: .acceptLanguage) ?? "", request: request)
    }
    return response
  }
}
