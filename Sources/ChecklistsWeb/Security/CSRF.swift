import Crypto
import FastCGI
import Support

/// CSRF tokens bound to a visitor: `HMAC-SHA256(server secret, visitor id)`
/// as 64 lower-case hex digits, sent in every form as the `csrf` field.
///
/// Nothing is stored per visitor: the token is recomputed on each request,
/// and stays the same for a visitor as long as the server secret does, so
/// two tabs and the back button never hold a stale one.
package struct CSRF: Sendable {
  /// The form field every `POST` carries.
  package static let fieldName = "csrf"

  /// Separates this use of the secret from any other HMAC made with it.
  static let label = "checklists csrf v1 "

  /// HMAC-SHA256 already keyed with the server secret: each token copies
  /// it instead of deriving the key's pads again (half the cost of a token).
  /// Never mutated in place, only copied; a copy's digest state is
  /// copied on write, so threads sharing this value never share a state.
  nonisolated(unsafe) private let keyed: HMAC<SHA256>

  /// The operator's configured origin, the only `Origin` accepted when set
  /// (see `OriginCheck`); nil to compare with the request's `Host`.
  let publicOrigin: PublicOrigin?

  /// Recent visitors' tokens: every page with a form asks for one, and its
  /// HMAC and hex took ~12,000 instructions of a computed list page
  /// (`bench-web --profile N computed`); a look-up here, a few hundred.
  /// Nothing secret is added: a token is what the visitor's page shows.
  private let recent = LockedValue(LRUCache<VisitorID, String>(capacity: Self.recentCapacity))
  static let recentCapacity = 4_096

  /// Tokens keyed by `secret`; posts' `Origin` checked against
  /// `publicOrigin` when given.
  package init(secret: ServerSecret, publicOrigin: PublicOrigin? = nil) {
    keyed = HMAC<SHA256>(key: secret.key)
    self.publicOrigin = publicOrigin
  }

  /// The token of `visitor`, 64 lower-case hex digits.
  package func token(for visitor: VisitorID) -> String {
    if let token = recent.withLock({ $0.value(forKey: visitor) }) { return token }
    let token = Hex.encode(contiguous: mac(for: visitor))
    recent.withLock { $0.setValue(token, forKey: visitor) }
    return token
  }

  /// True when `token` is `visitor`'s token. The comparison of the MAC
  /// takes the same time wherever the first wrong byte is.
  package func isValid(_ token: String, for visitor: VisitorID) -> Bool {
    guard token.utf8.count == SHA256.byteCount * 2, let mac = Hex.decodeLowercase(token) else {
      return false
    }
    return self.mac(for: visitor) == mac  // constant time (swift-crypto's safeCompare)
  }

  /// The verdict for a state-changing request: first the browser's
  /// `Sec-Fetch-Site` and `Origin` (`OriginCheck`), then the token.
  ///
  /// - Parameters:
  ///   - request: the `POST`.
  ///   - visitor: the id from a valid visitor cookie, nil when there was none.
  ///   - form: the decoded form, whose `csrf` field is checked.
  package func verdict(for request: Request, visitor: VisitorID?, form: FormData) -> ForgeryVerdict
  {
    verdict(for: request, visitor: visitor, submittedToken: form[Self.fieldName])
  }

  /// As `verdict(for:visitor:form:)`, with the submitted token given directly.
  package func verdict(for request: Request, visitor: VisitorID?, submittedToken: String?)
    -> ForgeryVerdict
  {
    let origin = OriginCheck.verdict(for: request, publicOrigin: publicOrigin)
    guard origin.isAllowed else { return origin }
    guard let visitor else { return .refused(.noVisitor) }
    guard let submittedToken, !submittedToken.isEmpty else { return .refused(.missingToken) }
    return isValid(submittedToken, for: visitor) ? .allowed : .refused(.wrongToken)
  }

  // MARK: Shared pages

  /// Separates the shared pages' tokens from the visitors' (whose input is
  /// 32 hex digits, a link's digest 64, and the labels differ anyway).
  static let shareLabel = "checklists share csrf v1 "

  /// The token of the forms of a shared list's page, for the link whose
  /// token's SHA-256 is `linkDigest`: `HMAC-SHA256(server secret, label +
  /// digest)`, 64 lower-case hex digits.
  ///
  /// A shared page has no visitor to bind a token to; it is bound to the
  /// link instead. Only whoever holds the link's token can load the page
  /// that carries it, another site can read neither (same-origin policy),
  /// and without the server secret nobody can make it: so a form posted
  /// from anywhere but the link's own page is refused even by someone who
  /// learnt the link's address yet cannot reach the site to read the page
  /// (a site inside a network the attacker's page is opened in). It is
  /// made from the digest, not the token, so the page's HTML tells nothing
  /// of the token; a token of one link is no token of another, and a link
  /// revoked and made again (a new token, a new digest) has a new one.
  package func token(forShare linkDigest: String) -> String {
    Hex.encode(contiguous: mac(forShare: linkDigest))
  }

  /// The verdict for a change posted to a shared list: the browser's
  /// word first (`OriginCheck.verdict(forPageWithoutReferrer:)`, since the
  /// page is sent with `Referrer-Policy: no-referrer`), then the token.
  package func verdict(for request: Request, share linkDigest: String, form: FormData)
    -> ForgeryVerdict
  {
    let origin = OriginCheck.verdict(forPageWithoutReferrer: request, publicOrigin: publicOrigin)
    guard origin.isAllowed else { return origin }
    guard let submitted = form[Self.fieldName], !submitted.isEmpty else {
      return .refused(.missingToken)
    }
    guard submitted.utf8.count == SHA256.byteCount * 2, let mac = Hex.decodeLowercase(submitted)
    else { return .refused(.wrongToken) }
    return self.mac(forShare: linkDigest) == mac ? .allowed : .refused(.wrongToken)
  }

  private func mac(forShare linkDigest: String) -> HashedAuthenticationCode<SHA256> {
    var mac = keyed
    mac.update(data: Array((Self.shareLabel + linkDigest).utf8))
    return mac.finalize()
  }

  private func mac(for visitor: VisitorID) -> HashedAuthenticationCode<SHA256> {
    var mac = keyed
    mac.update(data: Array((Self.label + visitor.hex).utf8))
    return mac.finalize()
  }
}
