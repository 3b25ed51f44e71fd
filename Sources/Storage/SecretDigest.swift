import Crypto
import Support

/// How secrets are kept at rest and compared: only a secret's SHA-256 is
/// ever written or used as a file name, and a presented secret is compared
/// in constant time.
package enum SecretDigest {
  /// The SHA-256 of `text`'s UTF-8 bytes, as 64 lower-case hex digits.
  package static func of(_ text: String) -> String {
    var text = text
    let digest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    return Hex.encode(contiguous: digest)
  }

  /// Whether two byte strings are equal, in a time that depends only on
  /// their lengths: every byte is looked at whatever the first difference,
  /// so the time taken says nothing about how much of a guess was right.
  package static func constantTimeEqual(_ ours: String, _ theirs: String) -> Bool {
    let ours = Array(ours.utf8)
    let theirs = Array(theirs.utf8)
    var difference = UInt8(truncatingIfNeeded: ours.count ^ theirs.count)
    for index in 0..<ours.count {
      difference |= ours[index] ^ (index < theirs.count ? theirs[index] : 0)
    }
    return difference == 0
  }
}
