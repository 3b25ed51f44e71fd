import ChecklistsModel
import Foundation
import Interchange
import Testing

private func imported(_ text: String, untitled: String = "Imported") throws(ImportFailure)
  -> [ImportedList]
{
  try MarkdownImport.lists(from: Array(text.utf8), untitledListName: untitled)
}

private func list(_ name: String, _ items: [(String, Bool)]) -> ImportedList {
  ImportedList(name: name, items: items.map { ImportedItem(text: $0.0, checked: $0.1) })
}

/// The message of the `ImportFailure` that `body` throws, nil if it throws none.
private func failure(_ body: () throws -> [ImportedList]) -> String? {
  do {
    _ = try body()
    return nil
  } catch let error as ImportFailure {
    return error.message
  } catch {
    return "not an ImportFailure: \(error)"
  }
}

@Suite("The Markdown import reads task lists as a person would")
struct MarkdownImportTests {
  @Test("A README with a to-do section: setext headings, nesting, emphasis, code, links")
  func readme() throws {
    let text = """
      Project
      =======

      Some introduction with a [link](https://example.com) and a list:

      - not a task
      - also not one

      Roadmap
      -------

      - [x] **Parser** for `*.md` files
      - [ ] Export to [iCalendar](https://icalendar.org)
        - [ ] `VTODO` per item
        - [x] Escaping of `;` and `,`
      - [ ] Support _emphasis_ &amp; entities \\*escaped\\*

      ## Empty section

      ## Done
      1. [X] Write tests
      2. [x] Ship it
      """
    #expect(
      try imported(text) == [
        list(
          "Roadmap",
          [
            ("Parser for *.md files", true), ("Export to iCalendar", false),
            ("VTODO per item", false), ("Escaping of ; and ,", true),
            ("Support emphasis & entities *escaped*", false),
          ]),
        list("Done", [("Write tests", true), ("Ship it", true)]),
      ])
  }

  @Test("Tasks before any heading go to the untitled list, tasks under a blank heading too")
  func untitled() throws {
    let text = """
      * [ ] first
      + [x] second

      # Named
      - [ ] third

      #
      - [ ] fourth
      """
    #expect(
      try imported(text, untitled: "From notes.md") == [
        list("From notes.md", [("first", false), ("second", true)]),
        list("Named", [("third", false)]),
        list("From notes.md", [("fourth", false)]),
      ])
  }

  @Test("Headings with the same name stay separate lists; a heading's markup is flattened")
  func headings() throws {
    let text = """
      # *Week* `1`
      - [ ] a
      # *Week* `1`
      - [ ] b
      ###### [Six](x) ######
      - [x] c
      """
    #expect(
      try imported(text) == [
        list("Week 1", [("a", false)]), list("Week 1", [("b", false)]), list("Six", [("c", true)]),
      ])
  }

  @Test("An [x] later on a line does not check its task (cmark-gfm 0.29 would)")
  func laterBox() throws {
    #expect(try imported("- [ ] Call [x] Corp\n") == [list("Imported", [("Call [x] Corp", false)])])
  }

  @Test("Tasks with no text are left out; texts are returned as the file has them")
  func blankTasks() throws {
    let text = "# L\n- [ ] \n- [x] &nbsp;\n- [ ] kept  \u{0007}\n- [ ] `  `\n"
    #expect(try imported(text) == [list("L", [("kept  \u{0007}", false)])])
  }

  @Test("Windows line endings and a byte order mark")
  func windows() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("# L\r\n- [x] a\r\n- [ ] b\r\n".utf8)
    #expect(
      try MarkdownImport.lists(from: bytes, untitledListName: "U")
        == [list("L", [("a", true), ("b", false)])])
  }

  // MARK: Refusals

  @Test("A file with no tasks is refused, saying what a task looks like")
  func noTasks() {
    let message = "This Markdown file has no tasks: lines like “- [ ] Milk” or “- [x] Eggs”."
    for text in ["", "# Just a heading\n", "- a plain list\n- of things\n", "> - [ ] quoted\n"] {
      #expect(failure { try imported(text) } == message, "\(text.debugDescription)")
    }
  }

  @Test("A file that is not UTF-8 is refused, naming the byte")
  func notUTF8() {
    let bytes = Array("- [ ] caf".utf8) + [0xE9] + Array(" au lait\n".utf8)
    #expect(
      failure { try MarkdownImport.lists(from: bytes, untitledListName: "U") }
        == "This file is not UTF-8 text (byte 10 is not), so it cannot be read as Markdown.")
    #expect(
      failure { try MarkdownImport.lists(from: [0xFF, 0xFE, 0x2D, 0x00], untitledListName: "U") }
        == "This file is not UTF-8 text (byte 1 is not), so it cannot be read as Markdown.")
  }

  @Test("More lists than a visitor may have are refused, stopping there")
  func tooManyLists() throws {
    let within = (1...Limits.maximumLists).map { "# L\($0)\n- [ ] t\n" }.joined()
    #expect(try imported(within).count == Limits.maximumLists)
    #expect(
      failure { try imported(within + "# One more\n- [ ] t\n# Headings alone do not count\n") }
        == "This Markdown file has more than 500 lists with tasks; at most 500 can be imported.")
    #expect(try imported(within + "# No tasks, no list\n").count == Limits.maximumLists)
  }

  @Test("More items than a list holds are refused, naming the list")
  func tooManyItems() throws {
    let items = String(repeating: "- [ ] t\n", count: Limits.maximumItemsPerList)
    #expect(try imported("# Big\n" + items)[0].items.count == Limits.maximumItemsPerList)
    #expect(
      failure { try imported("# Big\n" + items + "- [x] one more\n") }
        == "The list “Big” in this Markdown file has more than 5000 tasks; a list holds at most 5000."
    )
    #expect(try imported("# Big\n" + items + "# Next\n- [x] one more\n").count == 2)
  }

  @Test("A paragraph too dense to parse in time is refused, naming its line")
  func tooIntricate() {
    let text = "# L\n- [ ] fine\n\n" + String(repeating: "![[]()", count: 100_000)
    #expect(
      failure { try imported(text) }
        == "This Markdown file is too intricate to read: from line 4 on, one paragraph holds too many links, brackets and emphasis marks. Separate its lines with blank lines."
    )
  }

  // MARK: Sniffing

  @Test("looksLike: UTF-8 text with a task marker at a line's start")
  func sniffing() {
    let yes = [
      "- [ ] a", "# T\n\n* [x] b\n", "   + [X] c", "1. [ ] d", "123) [x] e\r\n", "- [ ] ",
    ]
    let no = [
      "", "plain text", "- [] a", "-[ ] a", "    - [ ] code", "text - [ ] inline", "{\"a\": 1}",
      "- [y] a", "1234567890. [ ] ten digits", "- [ ]", "- [x]\nnext line",
    ]
    for text in yes {
      #expect(MarkdownImport.looksLike(Array(text.utf8)), "\(text.debugDescription)")
    }
    for text in no {
      #expect(!MarkdownImport.looksLike(Array(text.utf8)), "\(text.debugDescription)")
    }
    #expect(!MarkdownImport.looksLike(Array("- [ ] caf".utf8) + [0xE9]))
    #expect(!MarkdownImport.looksLike(Array("bplist00".utf8) + [0x00, 0xD1]))
  }
}
