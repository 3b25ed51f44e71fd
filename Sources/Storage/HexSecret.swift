import Support

/// A secret that is an address (a calendar's, a share link's): random or
/// derived bytes written as lower-case hex digits. What `CalendarSecret`
/// and `ShareToken` share: the form a presented text must have, its
/// SHA-256 (all that is ever stored of it, and the name of its index
/// entry), and a description that never spells it out.
///
/// Whoever holds one reads the owner's lists or reminders, so it is never
/// printed: `description` hides it, and only `text` spells it out.
package protocol HexSecret: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// How many bytes the secret is; its text has twice as many digits.
  static var byteCount: Int { get }
  /// Its lower-case hex digits.
  var text: String { get }
  /// The secret of `text`, already checked to be of its form.
  init(checkedText text: String)
}

extension HexSecret {
  /// The length of `text`.
  package static var textLength: Int { byteCount * 2 }

  /// A secret from its text; nil unless exactly `textLength` lower-case
  /// hex digits.
  package init?(text: some StringProtocol) {
    guard Self.isWellFormed(text.utf8) else { return nil }
    self.init(checkedText: String(text))
  }

  /// True for exactly `textLength` lower-case hex digits.
  package static func isWellFormed(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.count == textLength
      && bytes.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
  }

  /// The SHA-256 of the text, in hex: all that is ever stored of it.
  package var digest: String { SecretDigest.of(text) }

  /// `CalendarSecret(hidden)`, `ShareToken(hidden)`.
  package var description: String { "\(Self.self)(hidden)" }
  package var debugDescription: String { description }
}
