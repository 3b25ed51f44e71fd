import FastCGI

extension FormData {
  /// The form of a change, once readable: `413`, `415` or `400` otherwise
  /// (whether it may change anything is for the caller to check).
  static func decoded(_ request: Request) throws(WebError) -> FormData {
    if request.bodyTooLarge { throw WebError.tooLarge }
    do {
      return try FormDecoder.decode(request)
    } catch {
      switch error {
      case .unsupportedMediaType: throw WebError.unsupportedMediaType
      case .invalidPercentEscape:
        throw WebError.badRequest(translatable("The form contains a malformed percent escape."))
      case .invalidUTF8:
        throw WebError.badRequest(translatable("The form contains text that is not UTF-8."))
      case .tooManyFields(let limit):
        throw WebError.badRequest(
          translatable("The form has more than {{limit}} fields."), [("limit", String(limit))])
      }
    }
  }
}
