import ChecklistsModel
import Interchange
import MarkdownOutline
import TestSupport
import Testing

@Suite("Items' notes in the Markdown export and import")
struct MarkdownNotesTests {
  func roundTrip(_ lists: [ImportedList]) throws {
    let model = try model(lists)
    let read = try MarkdownImport.lists(
      from: MarkdownExport.document(model), untitledListName: "Untitled")
    let expected = taskLists(model)
    #expect(read.count == expected.count)
    for (got, want) in zip(read, expected) {
      for (gotItem, wantItem) in zip(got.items, want.items) where gotItem != wantItem {
        let text = wantItem.text.debugDescription
        let got = gotItem.notes.debugDescription
        let want = wantItem.notes.debugDescription
        Issue.record("\(text): note \(got), not \(want)")
      }
      #expect(got.items.count == want.items.count)
    }
  }

  @Test("A note follows its task, indented after a blank line, its lines ended by hard breaks")
  func shape() throws {
    let model = try model([
      ImportedList(
        name: "Trip",
        items: [
          ImportedItem(text: "Passport", notes: "In the drawer\n\nCheck the date"),
          ImportedItem(text: "Socks", checked: true),
        ])
    ])
    #expect(
      String(decoding: MarkdownExport.document(model), as: UTF8.self)
        == "# Trip\n\n- [ ] Passport\n\n  In the drawer\\\n  \\\n  Check the date\n- [x] Socks\n")
  }

  @Test("Every line comes back: hostile texts, blank lines in runs, leading spaces and tabs")
  func hostileLines() throws {
    let lines = HostileTexts.all.filter { !$0.contains("\n") && !$0.contains("\r") }
    var items: [ImportedItem] = []
    for start in stride(from: 0, to: lines.count, by: 7) {
      let group = lines[start..<min(start + 7, lines.count)]
      let note =
        group.enumerated().map { index, line in
          switch index % 4 {
          case 1: "\n\n" + line
          case 2: "  \t" + line
          case 3: "\t" + line
          default: line
          }
        }.joined(separator: "\n") + "\n=== \n---\nlast line"
      items.append(ImportedItem(text: "Item \(start)", checked: start % 2 == 0, notes: note))
    }
    // A last line of `=` or `-` under another would make it a heading.
    items += ["===", "=", "---", "-", "- [ ] x", "1. y", "    code"].map {
      ImportedItem(text: "Last \($0)", notes: "above\n" + $0)
    }
    try roundTrip([ImportedList(name: "Notes", items: items)])
  }

  @Test("Random notes of punctuation, letters, spaces and line breaks, seeded")
  func random() throws {
    var generator = SeededGenerator(seed: 0x4E6F_7465_73)
    for _ in 0..<20 {
      let texts = HostileTexts.random(60, using: &generator)
      var items: [ImportedItem] = []
      for start in stride(from: 0, to: texts.count, by: 6) {
        let note = texts[start..<(start + 6)].map { text in
          String(repeating: "\n", count: Int.random(in: 0...2, using: &generator)) + text
        }.joined(separator: "\n")
        items.append(ImportedItem(text: "Item \(start)", notes: note))
      }
      let usable = items.filter { (try? NoteInput.clean($0.notes)) != nil }
      try roundTrip([ImportedList(name: "Random", items: usable)])
    }
  }

  @Test("Paragraphs after a task's first are its note; soft breaks read as spaces")
  func handWritten() throws {
    let document = """
      # Shop
      - [ ] Milk

        The organic one,
        from the corner shop.

        Two bottles\\
        if they have them
      - [x] Bread
      """
    #expect(
      try MarkdownImport.lists(from: Array(document.utf8), untitledListName: "U") == [
        ImportedList(
          name: "Shop",
          items: [
            ImportedItem(
              text: "Milk",
              notes: "The organic one, from the corner shop.\n\nTwo bottles\nif they have them"),
            ImportedItem(text: "Bread", checked: true),
          ])
      ])
  }
}
