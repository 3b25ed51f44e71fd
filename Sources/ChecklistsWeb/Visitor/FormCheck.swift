import FastCGI
import Logging

/// CSRF and Origin on every change: the body of a `POST` is read and
/// passed on only once it is known to come from the visitor's own page
/// (`403` otherwise, and nothing is changed). No `GET` passes here with a
/// body, so no screen pays for it.
struct FormCheck: Stage {
  let csrf: CSRF
  let logger: Logger

  func respond(to request: Request, context call: VisitorCall, next: Next<VisitorCall>) throws
    -> Response
  {
    guard call.match.route.isChange else { return try next(request, call) }
    var call = call
    let visitor = call.session.isNew ? nil : call.session.id
    if let cap = call.match.route.maximumBodySize {
      call.input = .upload(try acceptedUpload(request, visitor: visitor, cap: cap))
    } else {
      call.input = .form(try acceptedForm(request, visitor: visitor))
    }
    return try next(request, call)
  }

  /// The form of a change: `413`, `415`, `400` or `403` otherwise.
  func acceptedForm(_ request: Request, visitor: VisitorID?) throws(WebError) -> FormData {
    let form = try FormData.decoded(request)
    let verdict = csrf.verdict(for: request, visitor: visitor, form: form)
    guard verdict.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(verdict)")
      throw WebError.forbidden
    }
    return form
  }

  /// The body of an upload, read as `multipart/form-data`.
  ///
  /// The forgery checks are those of every form, in the order a multipart
  /// body allows: the browser's `Sec-Fetch-Site` and `Origin` first, then
  /// the body's size (at most `cap`: a larger `--max-body` must not raise
  /// it), type and shape (refusals the handler shows on its page: nothing
  /// is changed, nothing is kept), then the `csrf` part against the
  /// visitor's token.
  ///
  /// - Throws: `WebError.forbidden` (`403`) when the post comes from another
  ///   site or without this visitor's token.
  func acceptedUpload(_ request: Request, visitor: VisitorID?, cap: Int) throws(WebError) -> Upload
  {
    let origin = OriginCheck.verdict(for: request, publicOrigin: csrf.publicOrigin)
    guard origin.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(origin)")
      throw WebError.forbidden
    }
    if request.bodyTooLarge || request.body.count > cap { return .refused(.tooLarge) }
    let form: MultipartForm
    do {
      form = try MultipartForm.decode(request)
    } catch {
      switch error {
      case .notMultipart: return .refused(.notMultipart)
      case .noBoundary, .malformed, .tooManyParts: return .refused(.malformed)
      }
    }
    let verdict = csrf.verdict(
      for: request, visitor: visitor, submittedToken: form.text(CSRF.fieldName))
    guard verdict.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(verdict)")
      throw WebError.forbidden
    }
    return .form(form)
  }
}
