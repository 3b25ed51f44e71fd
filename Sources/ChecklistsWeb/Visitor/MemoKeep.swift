import Documents
import FastCGI

/// Keeps a revisited screen's whole answer in the memo `MemoLookup` reads,
/// when it changed nothing. The visitor's directory is looked at before
/// anything of theirs is read (see `ResponseMemo`), and never for a new
/// visitor or a cookie due for renewal (a kept answer never sends the
/// visitor cookie).
struct MemoKeep: Stage {
  let memo: ResponseMemo

  func respond(to request: Request, context call: VisitorCall, next: Next<VisitorCall>) throws
    -> Response
  {
    guard call.match.route.isRevisited, let key = call.arrival.memoKey else {
      return try next(request, call)
    }
    let visitor = call.visitor
    let response: Response
    let version: ResponseMemo.Version?
    if visitor.isNew {
      version = nil
      response = try next(request, call)
    } else if let view = DirectoryView.current, view.directory == visitor.directory.path {
      // Taken before the visitor was looked up (`VisitorGroup`).
      version = ResponseMemo.Version(view)
      response = try next(request, call)
    } else {
      version = memo.version(of: visitor.directory.path, now: call.arrival.now)
      response = try DirectoryView.reading(version?.view) { try next(request, call) }
    }
    if let version, !visitor.needsCookie {
      let acceptLanguage =
        response.headerFields.contains(LanguageChoice.vary)
        ? request.headerFields.value(of: .acceptLanguage) ?? "" : nil
      return memo.keep(
        response, version: version, until: call.lifetime.bound(visitor.cookieDue), for: key,
        route: call.match.position, acceptLanguage: acceptLanguage, request: request)
    }
    return response
  }
}
