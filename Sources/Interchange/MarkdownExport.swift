import ChecklistsModel

/// All lists as a GitHub-flavoured Markdown task list: each list a `# Name`
/// heading (lists in display order), each item `- [ ] text` or `- [x] text`
/// in the visitor's own order, a blank line between blocks; an empty list
/// is its heading alone.
///
/// An item's note follows its task line, after a blank line, indented into
/// the item: one paragraph, each line but the last ended by a hard line
/// break (`\`), so that every line, blank ones included, comes back.
///
/// A task list has no place for due dates, reminders, icons or the sort:
/// they are left out (the JSON export carries them), and `MarkdownImport`
/// reads back the names, texts, checkmarks and notes.
package enum MarkdownExport {
  package static func document(_ model: DataModel) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(
      model.lists.reduce(0) { $0 + 4 + $1.name.utf8.count + $1.items.count * 8 }
        + model.lists.reduce(0) { total, list in
          list.items.reduce(total) { $0 + $1.text.utf8.count + $1.notes.utf8.count }
        })
    for (index, list) in model.lists.enumerated() {
      if index > 0 { out.append(newline) }
      out.append(contentsOf: "# ".utf8)
      MarkdownText.append(list.name, as: .heading, to: &out)
      out.append(newline)
      if list.items.isEmpty { continue }
      out.append(newline)
      for item in list.items {
        out.append(contentsOf: (item.checked ? "- [x] " : "- [ ] ").utf8)
        MarkdownText.append(item.text, as: .task, to: &out)
        out.append(newline)
        if !item.notes.isEmpty { appendNote(item.notes, to: &out) }
      }
    }
    return out
  }

  /// A note's lines (see above); a blank line is the hard break alone.
  private static func appendNote(_ notes: String, to out: inout [UInt8]) {
    out.append(newline)
    let lines = notes.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      out.append(contentsOf: "  ".utf8)
      MarkdownText.append(String(line), as: .noteLine, to: &out)
      if index < lines.count - 1 { out.append(UInt8(ascii: "\\")) }
      out.append(newline)
    }
  }

  private static let newline = UInt8(ascii: "\n")
}

/// Text escaped so that GitHub-flavoured Markdown reads it back as exactly
/// the same text: as literal characters, with no emphasis, code, link,
/// autolink, strikethrough, table cell, HTML, entity or block of its own.
enum MarkdownText {
  enum Place {
    /// After `# `: every `#` is escaped, so that none can be taken for the
    /// heading's optional closing sequence (`# C #` would read as "C").
    case heading
    /// After `- [ ] `.
    case task
    /// A line of a note's paragraph, after the item's indentation: also
    /// no `=` first, which under a line would make it a heading.
    case noteLine
  }

  /// Appends `text`, escaped for `place`. Line breaks, which a cleaned text
  /// never holds, become spaces as `TextInput.clean` would make them.
  static func append(_ text: String, as place: Place, to out: inout [UInt8]) {
    let bytes = Array(text.utf8)
    let marker = orderedMarkerDelimiter(bytes)
    for (index, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"),
        UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "~"), UInt8(ascii: "|"):
        // Code spans, emphasis, links, strikethrough, table cells, and the
        // backslash itself; a box `[x]` anywhere on a task's line would
        // also make cmark-gfm 0.29 report the task checked.
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: "&"):
        out.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"):
        // Inline HTML and `<…>` autolinks.
        out.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: "=") where index == 0 && place == .noteLine:
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: "\t") where index == 0:
        // Four columns in: an indented code block.
        out.append(contentsOf: "&#9;".utf8)
      case UInt8(ascii: "#") where place == .heading || index == 0,
        UInt8(ascii: ">") where index == 0,
        UInt8(ascii: "-") where index == 0,
        UInt8(ascii: "+") where index == 0:
        // A heading, block quote or list of its own at the start (the
        // tasklist extension reads none there, other readers may).
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: ".") where index == marker, UInt8(ascii: ")") where index == marker:
        // `1.` or `1)` at the start: an ordered list.
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: ":") where follows(bytes, index, "//"):
        // The autolink extension takes `http://…` from the source as it
        // is, escapes and entities undecoded: `http\://` is no link.
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: ".") where index >= 3 && isWWW(bytes[(index - 3)..<index]):
        // Likewise `www.…`.
        out.append(backslash)
        out.append(byte)
      case UInt8(ascii: " ") where index == 0 || index == bytes.count - 1:
        // The parser trims spaces at a line's ends. A cleaned text ends in
        // one only after a prepended mark (U+0600 and a space are one
        // character, which trimming leaves whole).
        out.append(contentsOf: "&#32;".utf8)
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        out.append(UInt8(ascii: " "))
      default:
        out.append(byte)
      }
    }
  }

  private static let backslash = UInt8(ascii: "\\")

  /// The index of the `.` or `)` of an ordered list marker (1 to 9 digits)
  /// at the start of `bytes`, if any.
  private static func orderedMarkerDelimiter(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count, index < 10, bytes[index] >= UInt8(ascii: "0"),
      bytes[index] <= UInt8(ascii: "9")
    {
      index += 1
    }
    guard index > 0, index <= 9, index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ")")
    else { return nil }
    return index
  }

  private static func follows(_ bytes: [UInt8], _ index: Int, _ text: String) -> Bool {
    bytes[(index + 1)...].starts(with: text.utf8)
  }

  private static func isWWW(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy { $0 | 0x20 == UInt8(ascii: "w") }
  }
}
