import ChecklistsModel
import MarkdownOutline

/// Lists from a GitHub-flavoured Markdown task list, as a person reading the
/// rendered file would see them.
///
/// A heading (any level, `# Name` or `Name` over `===`) starts a list named
/// by its text; each task list item after it (`- [ ]`, `* [x]`, `+ [X]`,
/// `1. [ ]`, nested ones in document order) is an item with its checkmark,
/// its text flattened and the paragraphs after it in the item as its note
/// (see `MarkdownOutline`). Tasks before any heading
/// go to a list named `untitledListName`, as do tasks under a heading with
/// no text. A heading with no tasks under it makes no list; list items that
/// are not tasks, and tasks with no text, are left out. cmark-gfm reads no
/// task inside a block quote, and neither does this.
package enum MarkdownImport {
  package static func lists(from bytes: [UInt8], untitledListName: String) throws(ImportFailure)
    -> [ImportedList]
  {
    var budget = ImportBudget()
    return try lists(from: bytes, untitledListName: untitledListName, budget: &budget)
  }

  /// `lists(from:untitledListName:)`, charging each list and task to `budget` as it is
  /// read.
  package static func lists(
    from bytes: [UInt8], untitledListName: String, budget: inout ImportBudget
  ) throws(ImportFailure) -> [ImportedList] {
    if let offset = firstInvalidUTF8(bytes) {
      throw ImportFailure(
        translatable(
          "This file is not UTF-8 text (byte {{position}} is not), so it cannot be read as Markdown."
        ), ["position": .number(offset + 1)])
    }
    var reader = Reader(untitledListName: untitledListName, budget: budget)
    defer { budget = reader.budget }
    do {
      try MarkdownOutline.read(bytes) { reader.add($0) }
    } catch {
      switch error {
      case .tooIntricate(let line):
        throw ImportFailure(
          translatable(
            "This Markdown file is too intricate to read: from line {{line}} on, one paragraph holds too many links, brackets and emphasis marks. Separate its lines with blank lines."
          ), ["line": .number(line)])
      case .tooLarge(let parts):
        throw ImportFailure(
          translatable(
            "This Markdown file is too intricate to read: its lines, links, escapes, entities and emphasis marks count {{count}}, more than the {{limit}} a file may hold (a task list of 5,000 items has about 35,000 to 80,000)."
          ), ["count": .number(parts), "limit": .number(TreeSize.maximumParts)])
      case .tooDeep(let line):
        throw ImportFailure(
          translatable(
            "This Markdown file nests lists or block quotes more than {{limit}} deep on line {{line}}; a task list needs far fewer."
          ), ["limit": .number(ContainerDepth.maximumDepth), "line": .number(line)])
      }
    }
    if let failure = reader.failure { throw failure }
    guard !reader.lists.isEmpty else {
      throw ImportFailure(
        translatable("This Markdown file has no tasks: lines like “- [ ] Milk” or “- [x] Eggs”."))
    }
    return reader.lists
  }

  /// Whether `bytes` look like a Markdown task list: UTF-8 text with a line
  /// that starts (after up to three spaces) with a list marker, a box and
  /// a space or tab, such as `- [ ] ` or `1. [x] `. Cheap, and no promise that `lists`
  /// accepts the file.
  package static func looksLike(_ bytes: [UInt8]) -> Bool {
    guard firstInvalidUTF8(bytes) == nil else { return false }
    var index = 0
    while index < bytes.count {
      if hasTaskMarker(bytes, at: index) { return true }
      guard let end = bytes[index...].firstIndex(where: { $0 == newline || $0 == carriageReturn })
      else { return false }
      index = end + 1
    }
    return false
  }

  /// Groups the outline's entries into lists, stopping at the first limit.
  private struct Reader {
    let untitledListName: String
    var lists: [ImportedList] = []
    var failure: ImportFailure?
    var budget: ImportBudget
    /// The name of the list the next task starts, if it does not go to the
    /// last list.
    var nextName: String?

    init(untitledListName: String, budget: ImportBudget) {
      self.untitledListName = untitledListName
      self.budget = budget
      nextName = untitledListName
    }

    mutating func add(_ entry: MarkdownOutline.Entry) -> Bool {
      switch entry {
      case .heading(let text):
        nextName = isBlank(text) ? untitledListName : text
      case .task(let text, let checked, let notes):
        if isBlank(text) { return true }
        if let name = nextName {
          guard lists.count < Limits.maximumLists else {
            failure = ImportFailure(
              translatable(
                "This Markdown file has more than {{limit}} lists with tasks; at most {{limit}} can be imported."
              ), ["limit": .number(Limits.maximumLists)])
            return false
          }
          do { try budget.chargeList(name: name, icon: .folder) } catch {
            failure = error
            return false
          }
          lists.append(ImportedList(name: name))
          nextName = nil
        }
        guard lists[lists.count - 1].items.count < Limits.maximumItemsPerList else {
          failure = ImportFailure(
            translatable(
              "The list “{{name}}” in this Markdown file has more than {{limit}} tasks; a list holds at most {{limit}}."
            ),
            [
              "name": .text(shortened(lists[lists.count - 1].name)),
              "limit": .number(Limits.maximumItemsPerList),
            ])
          return false
        }
        let item = ImportedItem(text: text, checked: checked, notes: notes)
        do { try budget.chargeItem(item) } catch {
          failure = error
          return false
        }
        lists[lists.count - 1].items.append(item)
      }
      return true
    }

    /// Empty once cleaned (`TextInput.clean`): whitespace and control
    /// characters only. A text refused for another reason is kept, for
    /// `addImported` to name.
    private func isBlank(_ text: String) -> Bool {
      // Most texts start with a letter, which cleaning keeps; cleaning
      // every text took half of a 5,000-item import.
      if let first = text.unicodeScalars.first, !first.properties.isWhitespace,
        first.properties.generalCategory != .control
      {
        return false
      }
      do {
        _ = try TextInput.clean(text)
        return false
      } catch {
        return error == .emptyText
      }
    }

    private func shortened(_ name: String) -> String {
      name.count > 40 ? String(name.prefix(40)) + "…" : name
    }
  }

  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  /// The offset of the first byte that is not part of well-formed UTF-8.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  private static func hasTaskMarker(_ bytes: [UInt8], at start: Int) -> Bool {
    var index = start
    func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
    func isSpace(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    while index - start < 3, at(index) == UInt8(ascii: " ") { index += 1 }
    guard let first = at(index) else { return false }
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
      index += 1
    } else {
      let digits = index
      while let digit = at(index), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"),
        index - digits < 9
      {
        index += 1
      }
      guard index > digits, at(index) == UInt8(ascii: ".") || at(index) == UInt8(ascii: ")")
      else { return false }
      index += 1
    }
    guard isSpace(at(index)) else { return false }
    while isSpace(at(index)) { index += 1 }
    guard at(index) == UInt8(ascii: "["), let mark = at(index + 1),
      mark == UInt8(ascii: " ") || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X"),
      at(index + 2) == UInt8(ascii: "]")
    else { return false }
    // cmark-gfm reads a box as a task's only when a space or tab follows it.
    return isSpace(at(index + 3))
  }
}
