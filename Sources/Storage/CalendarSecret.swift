import Support

/// The key of a visitor's private calendar address
/// (`/calendar/<secret>.ics`): 32 bytes from the system's secure random
/// source, written as 64 lower-case hex digits (see `HexSecret`).
package struct CalendarSecret: HexSecret {
  /// 256 bits, far beyond guessing (at least 128 are needed).
  package static let byteCount = 32

  /// 64 lower-case hex digits.
  package let text: String

  package init(checkedText text: String) {
    self.text = text
  }

  /// A new secret from `SystemRandomNumberGenerator` (the kernel's CSPRNG).
  package static func random() -> CalendarSecret {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount)
    for _ in 0..<(byteCount / 8) {
      withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    return CalendarSecret(checkedText: Hex.encode(bytes))
  }

  /// The SHA-256 of a presented secret's text, in hex: the name of its
  /// entry in the address index.
  package static func digest(of text: String) -> String { SecretDigest.of(text) }

  /// Whether `presented` is this secret, compared in constant time.
  package func matches(_ presented: String) -> Bool {
    SecretDigest.constantTimeEqual(text, presented)
  }
}
