import Crypto
import Foundation

/// The key an owner's share links are made from, kept at rest only sealed
/// under a browser's token or a link code.
///
/// An owner may see their share links again at any time, yet a listing or
/// a backup of the data directory must reveal no usable link. So the links
/// are computed from this key (see `ShareLinks`), which is never written as
/// it is: each of the owner's browsers keeps a copy sealed (AES-GCM) under
/// a key derived from that browser's token, and an unspent link code keeps
/// one sealed under the code, from which redeeming it seals a copy for the
/// new browser. Tokens and codes are themselves stored only as digests, so
/// what is on disk opens nothing without a browser's cookie.
///
/// Never printed: `description`, `debugDescription` and its mirror hide it.
package struct OwnerSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// 256 bits from the system's secure random source.
  let bytes: [UInt8]

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  package var description: String { "OwnerSecret(hidden)" }
  package var debugDescription: String { description }
  package var customMirror: Mirror { Mirror(self, children: [:]) }

  /// The secret as a key for HMAC.
  package var key: SymmetricKey { SymmetricKey(data: bytes) }

  /// A new secret.
  package static func random() -> OwnerSecret {
    OwnerSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
  }

  /// Separates this use of a token from any other key derived from it.
  static let info = Array("checklists owner secret v1".utf8)

  /// The secret sealed under `token` (a browser's token or a link code's
  /// canonical form): nonce, ciphertext and tag in one value.
  package func sealed(under token: String) throws -> Data {
    let box = try AES.GCM.seal(bytes, using: Self.wrappingKey(token))
    guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
    return combined
  }

  /// The secret that `sealed` holds under `token`; nil when it was sealed
  /// under another token or has been tampered with.
  package static func opened(_ sealed: Data, under token: String) -> OwnerSecret? {
    guard let box = try? AES.GCM.SealedBox(combined: sealed),
      let bytes = try? AES.GCM.open(box, using: wrappingKey(token)), bytes.count == 32
    else { return nil }
    return OwnerSecret(bytes: Array(bytes))
  }

  private static func wrappingKey(_ token: String) -> SymmetricKey {
    HKDF<SHA256>.deriveKey(
      inputKeyMaterial: SymmetricKey(data: Array(token.utf8)), info: info, outputByteCount: 32)
  }
}
