import FastCGI

/// What an upload route's handler is given: the form, or why the body is
/// not one it can read. A body that cannot be read carries no token to
/// check, and changes nothing: its handler shows its page again with the
/// reason, rather than the site's error page.
enum Upload: Sendable, Equatable {
  /// The form, from the visitor's own page (its `csrf` part checked).
  case form(MultipartForm)
  /// The body was not read as a form.
  case refused(Refusal)

  /// Why a body was not read as a form.
  enum Refusal: Sendable, Equatable {
    /// Longer than the route's cap (`413`).
    case tooLarge
    /// Not `multipart/form-data` (`415`).
    case notMultipart
    /// `multipart/form-data` out of shape: no boundary, cut short, parts
    /// without names, too many parts (`400`).
    case malformed
  }
}

/// An upload's context: the body read as a form, or why it was not.
typealias UploadContext = RequestContext<Upload>

extension Application {
  /// The body of an upload to `route`, read as `multipart/form-data`.
  ///
  /// The forgery checks are those of every form (`acceptedForm`), in the
  /// order a multipart body allows: the browser's `Sec-Fetch-Site` and
  /// `Origin` first, then the body's size, type and shape (refusals the
  /// handler shows on its page: nothing is changed, nothing is kept),
  /// then the `csrf` part against the visitor's token.
  ///
  /// - Throws: `WebError.forbidden` (`403`) when the post comes from another
  ///   site or without this visitor's token.
  func acceptedUpload(_ request: Request, _ session: VisitorSession, route: Route)
    throws(WebError) -> Upload
  {
    let origin = OriginCheck.verdict(for: request, publicOrigin: csrf.publicOrigin)
    guard origin.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(origin)")
      throw WebError.forbidden
    }
    // The server reads no more than the route's cap; a larger `--max-body`
    // must not raise it.
    if request.bodyTooLarge || request.body.count > route.maximumBodySize ?? request.body.count {
      return .refused(.tooLarge)
    }
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
      for: request, visitor: session.isNew ? nil : session.id,
      submittedToken: form.text(CSRF.fieldName))
    guard verdict.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(verdict)")
      throw WebError.forbidden
    }
    return .form(form)
  }
}
