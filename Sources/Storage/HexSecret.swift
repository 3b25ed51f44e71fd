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
    let text = String(text)
    guard Self.isWellFormed(text.utf8) else { return nil }
    self.init(checkedText: text)
  }

  /// True for exactly `textLength` lower-case hex digits.
  package static func isWellFormed(_ text: String.UTF8View) -> Bool {
    LowerHexDigits.are(text, count: textLength)
  }

  /// True for exactly `textLength` lower-case hex digits.
  package static func isWellFormed(_ text: Substring.UTF8View) -> Bool {
    LowerHexDigits.are(text, count: textLength)
  }

  /// True for exactly `textLength` lower-case hex digits, read in place
  /// (a shared page's path in front of the route table).
  package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    LowerHexDigits.are(bytes, count: textLength)
  }

  /// The SHA-256 of the text, in hex: all that is ever stored of it.
  package var digest: String { SecretDigest.of(text) }

  /// `CalendarSecret(hidden)`, `ShareToken(hidden)`.
  package var description: String { "\(Self.self)(hidden)" }
  package var debugDescription: String { description }
}

/// The check of a secret's form, on the text's own bytes. Not generic on
/// purpose: called across modules as `some Collection<UInt8>` it was an
/// unspecialised `allSatisfy` of ~12,700 instructions for a 32-digit
/// token, a third of a shared page's kept `304` (callgrind, bench-web
/// --profile N shared).
///
/// A native string's bytes are read in place in one pass without early
/// exit (two range checks a byte): the `allSatisfy` over the view cost
/// 1,344 instructions for a 32-digit token (callgrind, bench-web --profile
/// N shared-kept), about a tenth of a kept shared page.
enum LowerHexDigits {
  static func are(_ text: String.UTF8View, count: Int) -> Bool {
    if let answer = text.withContiguousStorageIfAvailable({ are($0, count: count) }) {
      return answer
    }
    return text.count == count && text.allSatisfy(isLowerHexDigit)
  }

  static func are(_ text: Substring.UTF8View, count: Int) -> Bool {
    if let answer = text.withContiguousStorageIfAvailable({ are($0, count: count) }) {
      return answer
    }
    return text.count == count && text.allSatisfy(isLowerHexDigit)
  }

  static func are(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
    guard bytes.count == count else { return false }
    var outside: UInt8 = 0
    for byte in bytes {
      // 0 for a digit or a-f, 1 otherwise: no branch a byte.
      let digit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
      let letter: UInt8 = byte &- UInt8(ascii: "a") < 6 ? 1 : 0
      outside |= (digit | letter) ^ 1
    }
    return outside == 0
  }

  private static func isLowerHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }
}
