import Support

/// The key of a visitor's private calendar address
/// (`/calendar/<secret>.ics`): 32 bytes from the system's secure random
/// source, written as 64 lower-case hex digits.
///
/// Whoever holds it reads the visitor's reminders, so it is never printed:
/// `description` hides it, and only `text` (for the visitor's own Settings
/// page and their calendar's address) spells it out.
package struct CalendarSecret: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// 256 bits, far beyond guessing (at least 128 are needed).
  package static let byteCount = 32
  /// The length of `text`.
  package static let textLength = byteCount * 2

  /// 64 lower-case hex digits.
  package let text: String

  /// A secret from its text; nil unless exactly 64 lower-case hex digits.
  package init?(text: some StringProtocol) {
    guard Self.isWellFormed(text.utf8) else { return nil }
    self.text = String(text)
  }

  /// A new secret from `SystemRandomNumberGenerator` (the kernel's CSPRNG).
  package static func random() -> CalendarSecret {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount)
    for _ in 0..<(byteCount / 8) {
      withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    return CalendarSecret(text: Hex.encode(bytes))!
  }

  /// True for 64 lower-case hex digits.
  package static func isWellFormed(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.count == textLength
      && bytes.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
  }

  /// The SHA-256 of the text, in hex: the name of the secret's entry in
  /// the address index, so the index never holds a secret.
  package var digest: String { Self.digest(of: text) }

  /// The SHA-256 of a presented secret's text, in hex.
  package static func digest(of text: String) -> String { SecretDigest.of(text) }

  /// Whether `presented` is this secret, compared in constant time.
  package func matches(_ presented: String) -> Bool {
    SecretDigest.constantTimeEqual(text, presented)
  }

  package var description: String { "CalendarSecret(hidden)" }
  package var debugDescription: String { description }
}
