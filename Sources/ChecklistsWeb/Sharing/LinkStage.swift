import FastCGI
import Storage

/// The link the path's token opens: its owner, its list, read-only or
/// edit. A token that opens nothing (unknown, revoked) is the unknown
/// address's `404`, exactly.
struct LinkStage: Stage {
  let shares: ShareLinks

  func respond(to request: Request, context call: SharedCall, next: Next<SharedCall>) throws
    -> Response
  {
    var call = call
    guard let owner = try call.owner ?? shares.owner(ofDigest: call.digest),
      let access = try shares.access(digest: call.digest, owner: owner)
    else { throw WebError.pageNotFound }
    call.access = access
    return try next(request, call)
  }
}
