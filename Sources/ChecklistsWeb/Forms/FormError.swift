import HTTPTypes

/// Why a form submission could not be read. Each case maps to the status
/// the request is refused with; a refused request changes nothing.
package enum FormError: Error, Sendable, Hashable {
  /// The body is not `application/x-www-form-urlencoded` (`415`).
  case unsupportedMediaType
  /// A `%` not followed by two hex digits (`400`).
  case invalidPercentEscape
  /// A decoded name or value is not valid UTF-8 (`400`).
  case invalidUTF8
  /// More fields than the limit (`400`); the limit is carried for the message.
  case tooManyFields(limit: Int)

  /// The HTTP status to answer with.
  package var status: HTTPResponse.Status {
    switch self {
    case .unsupportedMediaType: .unsupportedMediaType
    case .invalidPercentEscape, .invalidUTF8, .tooManyFields: .badRequest
    }
  }
}
