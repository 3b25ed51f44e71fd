/// The headings and task list items of a GitHub-flavoured Markdown document,
/// in document order, as plain values: what an import of a Markdown task
/// list needs, read by GitHub's cmark-gfm with its `tasklist` and
/// `strikethrough` extensions (no pointer into the parser outlives `read`).
///
/// A text is an element's inline content flattened: text and code spans as
/// written (entities and backslash escapes decoded), emphasis, strikethrough
/// and link markers dropped (a link or image gives its text), raw inline
/// HTML kept as written, soft line breaks as a space. A task's text is the
/// first paragraph directly in its item (hard line breaks as a space); the
/// paragraphs after it are its note (hard line breaks as line breaks, a
/// blank line between paragraphs); a nested list's items are entries of
/// their own, after it.
package enum MarkdownOutline {
  package enum Entry: Sendable, Equatable {
    /// An ATX (`# Name`) or setext (`Name` over `===`) heading of any level.
    case heading(String)
    /// A task list item (`- [ ]`, `* [x]`, `+ [X]`, `1. [ ]`), nested or not.
    case task(String, checked: Bool, notes: String = "")
  }

  /// Parses `bytes` (UTF-8; a byte order mark is skipped) and hands each
  /// heading and task to `visit` in document order until it returns false.
  ///
  /// - Throws: before parsing, `.tooIntricate` when a part of the document
  ///   would cost the parser time quadratic in its size (see `InlineCost`),
  ///   `.tooLarge` when its tree would be large (see `TreeSize`), and
  ///   `.tooDeep` when a line opens more than `ContainerDepth.maximumDepth`
  ///   block quotes and lists.
  package static func read(_ bytes: [UInt8], visit: (Entry) -> Bool) throws(MarkdownOutlineError) {
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    try bytes.withUnsafeBufferPointer { (all) throws(MarkdownOutlineError) in
      let source = UnsafeBufferPointer(rebasing: all[start...])
      try InlineCost.check(source)
      try TreeSize.check(source)
      try ContainerDepth.check(source)
      CMarkGFM.read(source, visit: visit)
    }
  }

  /// Every entry of `bytes` (see `read(_:visit:)`).
  package static func entries(_ bytes: [UInt8]) throws(MarkdownOutlineError) -> [Entry] {
    var entries: [Entry] = []
    try read(bytes) { entry in
      entries.append(entry)
      return true
    }
    return entries
  }
}

/// Why a Markdown document is not read.
package enum MarkdownOutlineError: Error, Sendable, Equatable {
  /// From this 1-based line on, a paragraph holds so many links, brackets
  /// and emphasis marks that parsing it would take too long.
  case tooIntricate(line: Int)
  /// This 1-based line opens more block quotes and lists, one inside
  /// another, than `ContainerDepth.maximumDepth`.
  case tooDeep(line: Int)
  /// The document holds `parts` lines and characters that may each start
  /// a node of its tree, more than `TreeSize.maximumParts`.
  case tooLarge(parts: Int)
}
