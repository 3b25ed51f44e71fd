import Support

/// The random 128-bit value that recognises a visitor, spelled as 32
/// lower-case hex digits in the visitor cookie.
///
/// Only a value of exactly that form is accepted back from a cookie, so a
/// `VisitorID` is always safe to use in a file name; anything else (empty,
/// too long, upper case, `../`, non-ASCII) means "a new visitor".
package struct VisitorID: Sendable, Hashable, CustomStringConvertible {
  /// 128 bits: guessing another visitor's id is out of reach (2^-128 a try).
  package static let byteCount = 16

  /// The 32 lower-case hex digits.
  package let hex: String

  /// A new random id from `SystemRandomNumberGenerator` (the kernel's
  /// cryptographic generator).
  package init() {
    var generator = SystemRandomNumberGenerator()
    self.init(using: &generator)
  }

  /// A new id drawn from `generator`; tests pass a seeded one.
  package init(using generator: inout some RandomNumberGenerator) {
    var bytes: [UInt8] = []
    for _ in 0..<(Self.byteCount / 8) {
      withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    hex = Hex.encode(bytes)
  }

  /// The id a cookie carries, or nil unless `cookieValue` is exactly 32
  /// lower-case hex digits.
  package init?(cookieValue: String) {
    guard cookieValue.utf8.count == Self.byteCount * 2,
      Hex.decodeLowercase(cookieValue) != nil
    else { return nil }
    hex = cookieValue
  }

  /// The value to put in the cookie (the same 32 hex digits).
  package var cookieValue: String { hex }

  package var description: String { hex }
}
