/// Cleans what a visitor typed before it becomes a name or an item's text.
package enum TextInput {
  /// Returns `raw` with tabs and line breaks turned into spaces, other
  /// control characters removed, and leading and trailing whitespace trimmed.
  ///
  /// - Throws: `.emptyText` when nothing is left, `.textTooLong` when more
  ///   than `Limits.maximumTextLength` characters are, `.textTooLarge` when
  ///   fewer characters hold more than `Limits.maximumTextScalars` scalars
  ///   or `Limits.maximumTextBytes` bytes (combining marks piled on one
  ///   letter).
  package static func clean(_ raw: String) throws(ChecklistsError) -> String {
    if let plain = plainASCII(raw) { return plain }
    var scalars = String.UnicodeScalarView()
    for scalar in raw.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        // A pasted line break between two words must not glue them together.
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { scalars.append(" ") }
      } else {
        scalars.append(scalar)
      }
    }
    let text = String(scalars).trimmingWhitespace()
    if text.isEmpty { throw .emptyText }
    if text.count > Limits.maximumTextLength { throw .textTooLong(limit: Limits.maximumTextLength) }
    if text.unicodeScalars.count > Limits.maximumTextScalars
      || text.utf8.count > Limits.maximumTextBytes
    {
      throw .textTooLarge
    }
    return text
  }
}

extension TextInput {
  /// `raw` itself when it is printable ASCII with no space at either end
  /// and within the limits: what `clean` would return, found in one pass
  /// over the bytes (an import of 5,000 items spent most of its time in
  /// the general path's scalar walk and character count).
  fileprivate static func plainASCII(_ raw: String) -> String? {
    var raw = raw
    let isPlain = raw.withUTF8 { bytes in
      guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
        bytes.count <= Limits.maximumTextLength
      else { return false }
      for byte in bytes where byte < 0x20 || byte > 0x7E { return false }
      return true
    }
    return isPlain ? raw : nil
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
