/// Whether a state-changing request may proceed, and if not, why.
///
/// Every refusal is answered with `403` and changes nothing; the reason is
/// for the log, not for the page.
package enum ForgeryVerdict: Sendable, Hashable {
  /// The request may change something.
  case allowed
  /// The request must be refused with `403`.
  case refused(Reason)

  /// Why a request was refused.
  package enum Reason: Sendable, Hashable {
    /// `Sec-Fetch-Site: cross-site`: the browser says another site sent it.
    case crossSiteFetch
    /// `Origin: null` (a sandboxed frame, a `data:` page, a privacy redirect).
    case nullOrigin
    /// An `Origin` that is not `http(s)://host[:port]`.
    case malformedOrigin
    /// An `Origin` whose host and port differ from the request's `Host`.
    case originMismatch
    /// An `Origin` but no `Host` to compare it with.
    case missingHost
    /// No valid visitor cookie, so no token can be bound to one.
    case noVisitor
    /// No `csrf` field in the form.
    case missingToken
    /// A `csrf` field that is not this visitor's token.
    case wrongToken
  }

  /// True for `.allowed`.
  package var isAllowed: Bool { self == .allowed }
}
