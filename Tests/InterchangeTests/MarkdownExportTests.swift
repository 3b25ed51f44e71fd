import ChecklistsModel
import Foundation
import Interchange
import Testing

@Suite("The Markdown export: a task list per list")
struct MarkdownExportTests {
  func exported(_ lists: [ImportedList]) throws -> String {
    String(decoding: MarkdownExport.document(try model(lists)), as: UTF8.self)
  }

  @Test("Lists in display order, items in the visitor's order, a blank line between blocks")
  func layout() throws {
    let text = try exported([
      ImportedList(
        name: "Packing",
        items: [ImportedItem(text: "Passport", checked: true), ImportedItem(text: "Tickets")]),
      ImportedList(name: "Empty"),
      ImportedList(
        name: "Groceries",
        items: [
          ImportedItem(text: "Milk"), ImportedItem(text: "Eggs", checked: true),
          ImportedItem(text: "Bread"),
        ]),
    ])
    #expect(
      text == """
        # Empty

        # Groceries

        - [ ] Milk
        - [x] Eggs
        - [ ] Bread

        # Packing

        - [x] Passport
        - [ ] Tickets

        """)
  }

  @Test("No lists, no bytes")
  func nothing() {
    #expect(MarkdownExport.document(DataModel()).isEmpty)
  }

  @Test("Due dates and reminders are left out: a task list has no place for them")
  func datesLeftOut() throws {
    let due = Date(timeIntervalSince1970: 1_900_000_000)
    let text = try exported([
      ImportedList(
        name: "Dated", sort: .dueDate,
        items: [ImportedItem(text: "Pay rent", dueDate: due, shouldRemind: true)])
    ])
    #expect(text == "# Dated\n\n- [ ] Pay rent\n")
  }

  @Test(
    "Markup in a text is escaped, and plain text is left as it is",
    arguments: [
      ("Milk", "Milk"),
      ("2 * 3 = 6", "2 \\* 3 = 6"),
      ("snake_case", "snake\\_case"),
      ("[x] done", "\\[x\\] done"),
      ("`rm -rf`", "\\`rm -rf\\`"),
      ("C:\\Temp", "C:\\\\Temp"),
      ("<b>AT&T</b>", "&lt;b>AT&amp;T&lt;/b>"),
      ("# tag", "\\# tag"),
      ("a # b", "a # b"),
      ("> quote", "\\> quote"),
      ("a > b", "a > b"),
      ("- dash", "\\- dash"),
      ("+ plus", "\\+ plus"),
      ("1. first", "1\\. first"),
      ("12) twelfth", "12\\) twelfth"),
      ("2024.01.05 (Fri.)", "2024\\.01.05 (Fri.)"),
      ("1234567890. ten digits", "1234567890. ten digits"),
      ("~~old~~", "\\~\\~old\\~\\~"),
      ("a | b", "a \\| b"),
      ("see https://example.com/a_b", "see https\\://example.com/a\\_b"),
      ("www.example.com", "www\\.example.com"),
      ("WwW.example.com", "WwW\\.example.com"),
      ("mail me: a@b.com", "mail me: a@b.com"),
      ("🛒 Milk", "🛒 Milk"),
      ("a mark and a space\u{0600} ", "a mark and a space\u{0600}&#32;"),
    ])
  func escaping(text: String, written: String) throws {
    #expect(
      try exported([ImportedList(name: "L", items: [ImportedItem(text: text)])])
        == "# L\n\n- [ ] \(written)\n")
  }

  @Test("Every # of a list name is escaped: none closes the heading")
  func headingHashes() throws {
    #expect(
      try exported([ImportedList(name: "C# #", items: [])]) == "# C\\# \\#\n")
    #expect(try exported([ImportedList(name: "#", items: [])]) == "# \\#\n")
  }
}
