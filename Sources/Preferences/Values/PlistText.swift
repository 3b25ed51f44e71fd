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

  /// `text` without the characters XML cannot hold, and without a leading
  /// U+FEFF: Foundation's XML reader on Linux (CoreFoundation) takes one at
  /// the start of a key or string for a byte-order mark and drops it (even
  /// written as `&#xFEFF;`), so it would not survive the file; the fuzzer
  /// found such a key. Stripping rather than refusing keeps `set(_: String,
  /// forKey:)` non-throwing, and a visitor's pasted text loses only
  /// characters that no browser shows anyway.
  static func sanitized(_ text: String) -> String {
    let allowed = onlyAllowed(text)
    guard allowed.unicodeScalars.first == "\u{FEFF}" else { return allowed }
    return String(String.UnicodeScalarView(allowed.unicodeScalars.drop { $0 == "\u{FEFF}" }))
  }

  private static func onlyAllowed(_ text: String) -> String {
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
