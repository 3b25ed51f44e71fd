/// Cleans what a visitor typed as an item's note: unlike a text, a note
/// keeps its lines.
package enum NoteInput {
  /// Returns `raw` with every line break (`\r\n`, `\r`, `\n`, and the
  /// Unicode line and paragraph separators) as `\n`, tabs kept, other control
  /// characters removed, each line's trailing whitespace and the note's
  /// blank lines at either end dropped. An empty result is no note.
  ///
  /// - Throws: `.noteTooLong` past `Limits.maximumNoteLength` characters,
  ///   `.noteTooLarge` past `Limits.maximumNoteScalars` scalars or
  ///   `Limits.maximumNoteBytes` bytes.
  package static func clean(_ raw: String) throws(ChecklistsError) -> String {
    // Bounded before any copy is made: a note that large is refused anyway.
    if raw.utf8.count > 4 * Limits.maximumNoteBytes { throw .noteTooLarge }
    var lines: [String] = []
    var line = String.UnicodeScalarView()
    var afterCarriageReturn = false
    for scalar in raw.unicodeScalars {
      defer { afterCarriageReturn = scalar == "\r" }
      switch scalar {
      case "\n" where afterCarriageReturn: continue
      case "\r", "\n", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\u{85}":
        lines.append(String(line).trimmingTrailingWhitespace())
        line = String.UnicodeScalarView()
      case "\t": line.append(scalar)
      default:
        if scalar.properties.generalCategory != .control { line.append(scalar) }
      }
    }
    lines.append(String(line).trimmingTrailingWhitespace())
    guard let first = lines.firstIndex(where: { !$0.isEmpty }),
      let last = lines.lastIndex(where: { !$0.isEmpty })
    else { return "" }
    let note = lines[first...last].joined(separator: "\n")
    if note.count > Limits.maximumNoteLength {
      throw .noteTooLong(limit: Limits.maximumNoteLength)
    }
    if note.unicodeScalars.count > Limits.maximumNoteScalars
      || note.utf8.count > Limits.maximumNoteBytes
    {
      throw .noteTooLarge
    }
    return note
  }
}

extension String {
  fileprivate func trimmingTrailingWhitespace() -> String {
    guard let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
    return String(self[...last])
  }
}
