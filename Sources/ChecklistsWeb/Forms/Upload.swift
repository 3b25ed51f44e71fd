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
