import Crypto
import Support

/// The secret of one share link, the `<token>` of `/s/<token>`: 128 bits
/// written as 32 lower-case hex digits.
///
/// It is derived, never stored: the first 16 bytes of
/// `HMAC-SHA256(owner secret, "checklists share v1 <list> <kind> <generation>")`.
/// So the owner's browsers (which can open the owner's secret) can show a
/// link again at any time, while the data directory keeps only its SHA-256
/// (`Shares.plist`, the `shares/` index), which opens nothing. A new
/// generation is a new token, so a revoked link never works again, and the
/// read-only and the edit link of a list are two outputs of a PRF under a
/// key their holders do not have: neither tells anything about the other.
///
/// Whoever holds it reads (or changes) the list (see `HexSecret`).
package struct ShareToken: HexSecret {
  /// 128 bits: the least a secret address may have.
  package static let byteCount = 16

  /// 32 lower-case hex digits.
  package let text: String

  package init(checkedText text: String) {
    self.text = text
  }

  /// The message the token is the MAC of.
  static func message(listID: Int, kind: ShareKind, generation: Int) -> String {
    "checklists share v1 \(listID) \(kind.rawValue) \(generation)"
  }

  /// The token of the owner's link of `kind` to list `listID`, of
  /// `generation`.
  package static func derive(
    secret: OwnerSecret, listID: Int, kind: ShareKind, generation: Int
  ) -> ShareToken {
    let mac = HMAC<SHA256>.authenticationCode(
      for: Array(message(listID: listID, kind: kind, generation: generation).utf8),
      using: secret.key)
    return ShareToken(checkedText: Hex.encode(Array(mac).prefix(byteCount)))
  }
}
