import FastCGI

extension Application {
  /// The form of a change, once it is known to be readable and to come
  /// from the visitor's own page: `413`, `415`, `400` or `403` otherwise.
  /// Every `POST` route passes here before its handler runs.
  func acceptedForm(_ request: Request, _ session: VisitorSession) throws(WebError) -> FormData {
    let form = try decodedForm(request)
    let verdict = csrf.verdict(
      for: request, visitor: session.isNew ? nil : session.id, form: form)
    guard verdict.isAllowed else {
      logger.notice("refused \(request.method) \(request.path): \(verdict)")
      throw WebError.forbidden
    }
    return form
  }

  /// The form of a change, once readable: `413`, `415` or `400` otherwise
  /// (whether it may change anything is for the caller to check).
  func decodedForm(_ request: Request) throws(WebError) -> FormData {
    if request.bodyTooLarge { throw WebError.tooLarge }
    let form: FormData
    do {
      form = try FormDecoder.decode(request)
    } catch {
      switch error {
      case .unsupportedMediaType: throw WebError.unsupportedMediaType
      case .invalidPercentEscape:
        throw WebError.badRequest("The form contains a malformed percent escape.")
      case .invalidUTF8: throw WebError.badRequest("The form contains text that is not UTF-8.")
      case .tooManyFields(let limit):
        throw WebError.badRequest("The form has more than \(limit) fields.")
      }
    }
    return form
  }
}
