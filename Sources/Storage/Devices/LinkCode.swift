/// A one-time code that lets another browser use an owner's lists.
///
/// 28 characters of Crockford's base 32 (140 bits from the system's secure
/// random source, so at least 128 as asked), shown in groups of four
/// (`K7Q2-M9XD-…`) and carried in a link in lower case without the dashes
/// (`/link/k7q2m9xd…`). What a person types is read leniently: any case,
/// spaces and dashes ignored, `I`/`L` read as `1` and `O` as `0`, as the
/// alphabet intends.
///
/// It is never stored: the owner's devices file keeps its SHA-256 of the
/// canonical form (`digest`), and `description` hides it.
package struct LinkCode: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible
{
  /// Characters in a code.
  package static let length = 28
  /// Characters in a group of the shown form.
  static let groupLength = 4
  /// Crockford's base-32 alphabet: no I, L, O or U.
  static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

  /// The canonical form: 28 upper-case characters of the alphabet.
  package let canonical: String

  /// A new code from `SystemRandomNumberGenerator` (the kernel's CSPRNG).
  package static func random() -> LinkCode {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// A new code drawn from `generator`; tests pass a seeded one.
  package static func random(using generator: inout some RandomNumberGenerator) -> LinkCode {
    LinkCode(canonical: randomCanonical(length: length, using: &generator))
  }

  private init(canonical: String) {
    self.canonical = canonical
  }

  /// The code a person typed or a link carried, or nil when it cannot be
  /// one (too short, too long, a character outside the alphabet).
  package init?(typed: some StringProtocol) {
    guard let canonical = Self.canonical(typed: typed, length: Self.length) else { return nil }
    self.canonical = canonical
  }

  // MARK: codes of this alphabet (link codes, calendar apps' passwords)

  /// `length` characters of the alphabet drawn from `generator`.
  static func randomCanonical(length: Int, using generator: inout some RandomNumberGenerator)
    -> String
  {
    var characters: [UInt8] = []
    characters.reserveCapacity(length)
    for _ in 0..<length {
      characters.append(alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))])
    }
    return String(decoding: characters, as: UTF8.self)
  }

  /// The canonical form of a code of `length` characters as a person typed
  /// it (any case, spaces and dashes ignored, `I`/`L` as `1`, `O` as `0`),
  /// or nil when it cannot be one.
  static func canonical(typed: some StringProtocol, length: Int) -> String? {
    guard typed.utf8.count <= 4 * length else { return nil }
    var characters: [UInt8] = []
    for byte in typed.utf8 {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"): continue
      default:
        guard let character = canonicalCharacter(byte) else { return nil }
        characters.append(character)
      }
    }
    guard characters.count == length else { return nil }
    return String(decoding: characters, as: UTF8.self)
  }

  /// The upper-case alphabet character a typed byte stands for, if any.
  static func canonicalCharacter(_ byte: UInt8) -> UInt8? {
    var upper = byte
    if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { upper = byte - 32 }
    switch upper {
    case UInt8(ascii: "I"), UInt8(ascii: "L"): return UInt8(ascii: "1")
    case UInt8(ascii: "O"): return UInt8(ascii: "0")
    default: return alphabet.contains(upper) ? upper : nil
    }
  }

  /// The form to show and read aloud: groups of four joined by dashes.
  package var grouped: String { Self.grouped(canonical) }

  /// `canonical` in groups of four joined by dashes.
  static func grouped(_ canonical: String) -> String {
    var groups: [Substring] = []
    var rest = Substring(canonical)
    while !rest.isEmpty {
      groups.append(rest.prefix(groupLength))
      rest = rest.dropFirst(groupLength)
    }
    return groups.joined(separator: "-")
  }

  /// The form a link carries: lower case, no dashes (a path segment of
  /// letters and digits only).
  package var inLink: String { canonical.lowercased() }

  /// What is stored and looked up: the SHA-256 of the canonical form.
  package var digest: String { SecretDigest.of(canonical) }

  package var description: String { "LinkCode(hidden)" }
  package var debugDescription: String { description }
}
