/// What an XML property list can hold as text.
enum PlistText {
  /// Whether XML 1.0 can carry the scalar (tab, line feed and carriage
  /// return are the only control characters it allows).
  static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: return true
    case 0x00..<0x20: return false
    case 0xFFFE, 0xFFFF: return false
    default: return true
    }
  }

  /// `text` without the characters XML cannot hold. Stripping rather than
  /// refusing keeps `set(_: String, forKey:)` non-throwing, and a visitor's
  /// pasted text loses only characters that no browser shows anyway.
  static func sanitized(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
      && !text.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF })
    {
      return text
    }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where isAllowed(scalar) { scalars.append(scalar) }
    return String(scalars)
  }
}
