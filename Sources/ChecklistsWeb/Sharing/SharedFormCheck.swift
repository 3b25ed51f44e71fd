import FastCGI
import Logging

/// CSRF and Origin on every change of a shared list, after the link's
/// own standing: a read-only link's change is refused before its body is
/// read, and a form is passed on only with the link's own token.
struct SharedFormCheck: Stage {
  let csrf: CSRF
  let logger: Logger

  func respond(to request: Request, context call: SharedCall, next: Next<SharedCall>) throws
    -> Response
  {
    guard call.match.route.isChange else { return try next(request, call) }
    guard call.access.kind.allowsChanges else { throw SharedRefusal.readOnly }
    let form = try FormData.decoded(request)
    let verdict = csrf.verdict(for: request, share: call.digest, form: form)
    guard verdict.isAllowed else {
      logger.notice("refused \(call.match.route): \(verdict)")
      throw WebError.forbidden
    }
    var call = call
    call.form = form
    return try next(request, call)
  }
}
