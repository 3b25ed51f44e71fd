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

extension String {
  fileprivate func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
