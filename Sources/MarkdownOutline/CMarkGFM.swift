import CCMarkGFM
import Foundation

/// Every `cmark_*` call of the package: parses a document with the
/// `tasklist` and `strikethrough` extensions and walks its tree with
/// cmark's iterator (no recursion, however deep the document nests),
/// copying texts out before the tree is freed.
///
/// Threads: one document at a time in the process. This cmark-gfm keeps
/// the characters that start an extension's inlines (strikethrough's `~`)
/// in one table for the whole process, adds them when a parser starts on
/// its inlines and removes them when it is done, so a parse finishing on
/// one thread would take `~~` away from a parse under way on another. An
/// import is rare and parses 5,000 tasks in milliseconds; the lock keeps
/// each parse whole. (Attaching an extension only adds it to the parser's
/// own list.)
enum CMarkGFM {
  /// The extensions' handles, which live as long as the process.
  private struct Extensions: @unchecked Sendable {
    let tasklist: OpaquePointer
    let strikethrough: OpaquePointer
  }

  private static let extensions: Extensions = {
    cmark_gfm_core_extensions_ensure_registered()
    guard let tasklist = cmark_find_syntax_extension("tasklist"),
      let strikethrough = cmark_find_syntax_extension("strikethrough")
    else { fatalError("cmark-gfm-extensions has no tasklist or strikethrough extension") }
    return Extensions(tasklist: tasklist, strikethrough: strikethrough)
  }()

  /// Held while a document is parsed (see above); the walk of its tree
  /// needs no lock.
  private static let lock = NSLock()

  /// Parses `source` and hands its headings and tasks to `visit` in
  /// document order until it returns false.
  static func read(_ source: UnsafeBufferPointer<UInt8>, visit: (MarkdownOutline.Entry) -> Bool) {
    let extensions = extensions
    guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else {
      fatalError("cmark-gfm could not allocate a parser")
    }
    defer { cmark_parser_free(parser) }
    cmark_parser_attach_syntax_extension(parser, extensions.tasklist)
    cmark_parser_attach_syntax_extension(parser, extensions.strikethrough)
    lock.lock()
    source.withMemoryRebound(to: CChar.self) { characters in
      if let base = characters.baseAddress { cmark_parser_feed(parser, base, characters.count) }
    }
    let finished = cmark_parser_finish(parser)
    lock.unlock()
    guard let document = finished else { return }
    defer { cmark_node_free(document) }
    guard let iterator = cmark_iter_new(document) else { return }
    defer { cmark_iter_free(iterator) }
    var lines: SourceLines?
    while true {
      let event = cmark_iter_next(iterator)
      if event == CMARK_EVENT_DONE { return }
      guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
      switch cmark_node_get_type(node) {
      case CMARK_NODE_HEADING:
        if !visit(.heading(inlineText(of: node))) { return }
        cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
      case CMARK_NODE_PARAGRAPH:
        // Read with their item or not at all: the walk skips their inlines.
        cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
      case CMARK_NODE_ITEM where cmark_node_get_syntax_extension(node) == extensions.tasklist:
        if lines == nil { lines = SourceLines(source) }
        let (text, notes) = taskParts(of: node)
        if !visit(.task(text, checked: isChecked(node, in: lines!), notes: notes)) { return }
      default:
        break
      }
    }
  }

  /// A task's text, its item's first paragraph, and its note: the other
  /// paragraphs directly in the item, a blank line between them, each hard
  /// line break a line break of the note.
  private static func taskParts(of item: OpaquePointer) -> (text: String, notes: String) {
    var text: String?
    var notes = ""
    var child = cmark_node_first_child(item)
    while let node = child {
      if cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH {
        if text == nil {
          text = inlineText(of: node, hardBreak: " ")
        } else {
          if !notes.isEmpty { notes += "\n\n" }
          notes += inlineText(of: node, hardBreak: "\n")
        }
      }
      child = cmark_node_next(node)
    }
    return (text ?? "", notes)
  }

  /// The checkbox as the source has it. cmark-gfm 0.29.0.gfm.6 reports an
  /// item checked when an `[x]` appears anywhere on its first line (it
  /// searches the line with `strstr`), so `- [ ] Call [x] Corp` would read
  /// as done; the box right after the item's marker is what counts. The
  /// library's answer stands only if the source is not where the item's
  /// position says.
  private static func isChecked(_ item: OpaquePointer, in lines: SourceLines) -> Bool {
    let line = Int(cmark_node_get_start_line(item))
    let column = Int(cmark_node_get_start_column(item))
    return lines.taskBox(line: line, column: column)
      ?? cmark_gfm_extensions_get_tasklist_item_checked(item)
  }

  /// A block's inline content flattened to text (see `MarkdownOutline`),
  /// each hard line break as `hardBreak`.
  private static func inlineText(of block: OpaquePointer, hardBreak: String = " ") -> String {
    guard let iterator = cmark_iter_new(block) else { return "" }
    defer { cmark_iter_free(iterator) }
    var text = ""
    while true {
      let event = cmark_iter_next(iterator)
      if event == CMARK_EVENT_DONE { return text }
      guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
      switch cmark_node_get_type(node) {
      case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
        if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
      case CMARK_NODE_SOFTBREAK:
        text += " "
      case CMARK_NODE_LINEBREAK:
        text += hardBreak
      default:
        break
      }
    }
  }
}
