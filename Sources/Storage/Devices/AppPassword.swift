/// The password a calendar app signs in with over CalDAV (Basic
/// authentication): 32 characters of Crockford's base 32 (160 bits from
/// the system's secure random source), shown once in groups of four and
/// read as leniently as a link code (any case, spaces and dashes ignored,
/// `I`/`L` as `1`, `O` as `0`): an app may keep it as typed.
///
/// It is never stored: the owner's devices file and the `apps/` index keep
/// its SHA-256 of the canonical form (`digest`), and `description` hides it.
package struct AppPassword: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// Characters in a password.
  package static let length = 32

  /// The canonical form: 32 upper-case characters of the alphabet.
  package let canonical: String

  /// A new password from `SystemRandomNumberGenerator` (the kernel's CSPRNG).
  package static func random() -> AppPassword {
    var generator = SystemRandomNumberGenerator()
    return AppPassword(canonical: LinkCode.randomCanonical(length: length, using: &generator))
  }

  private init(canonical: String) {
    self.canonical = canonical
  }

  /// The password an app sent, or nil when it cannot be one.
  package init?(typed: some StringProtocol) {
    guard let canonical = LinkCode.canonical(typed: typed, length: Self.length) else {
      return nil
    }
    self.canonical = canonical
  }

  /// The form shown once: groups of four joined by dashes.
  package var grouped: String { LinkCode.grouped(canonical) }

  /// What is stored and looked up: the SHA-256 of the canonical form.
  package var digest: String { SecretDigest.of(canonical) }

  package var description: String { "AppPassword(hidden)" }
  package var debugDescription: String { description }
}
