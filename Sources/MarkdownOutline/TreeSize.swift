/// A guard, checked before parsing, against documents whose syntax tree
/// would be large for their size: cmark-gfm builds the whole tree before
/// the first heading or task is read, a node of it takes about 170 to 220
/// bytes, and an inline node starts at every special character. 1 MB of
/// `&` (an entity's start, a node each) took 235 ms and +178 MB of backend
/// RSS for one upload, 60,000 one-task lists 66 ms and +79 MB (issue 24;
/// release build). A document is refused when its lines (three parts
/// each) and the characters that may start an inline node (`\`, `` ` ``,
/// `*`, `_`, `[`, `]`, `!`, `<`, `&`, `~`) pass `maximumParts`: at most
/// about 27 MB of tree. A task list of 5,000 items, each with one `&`, has
/// about 35,000 parts; two of 5,000 tasks each with links and emphasis
/// about 155,000.
package enum TreeSize {
  package static let maximumParts = 160_000
  /// A task line is three nodes (its item, paragraph and text), a heading two.
  static let partsPerLine = 3

  static func check(_ source: UnsafeBufferPointer<UInt8>) throws(MarkdownOutlineError) {
    var parts = 1
    for byte in source {
      switch byte {
      case UInt8(ascii: "\n"):
        parts += partsPerLine
      case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"),
        UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "!"),
        UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "~"):
        parts += 1
      default: continue
      }
    }
    if parts > maximumParts { throw .tooLarge(parts: parts) }
  }
}
