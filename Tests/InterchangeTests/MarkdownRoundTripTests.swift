import ChecklistsModel
import Foundation
import Interchange
import TestSupport
import Testing

@Suite("Markdown export, then import: the same lists")
struct MarkdownRoundTripTests {
  /// Lists of hostile texts, some as names, alternately checked.
  static func hostileLists() -> [ImportedList] {
    let texts = HostileTexts.all
    var lists: [ImportedList] = []
    for (start, end) in stride(from: 0, to: texts.count, by: 40).map({
      ($0, min($0 + 40, texts.count))
    }) {
      lists.append(
        ImportedList(
          name: texts[start],
          items: texts[start..<end].enumerated().map {
            ImportedItem(text: $0.element, checked: $0.offset % 2 == 1)
          }))
    }
    lists += HostileTexts.punctuation.map {
      ImportedList(name: "\($0) list \($0)", items: [ImportedItem(text: $0, checked: true)])
    }
    return lists
  }

  func roundTrip(_ lists: [ImportedList]) throws {
    let model = try model(lists)
    let bytes = MarkdownExport.document(model)
    let read = try MarkdownImport.lists(from: bytes, untitledListName: "Untitled")
    let expected = taskLists(model).filter { !$0.items.isEmpty }
    #expect(read.count == expected.count)
    for (got, want) in zip(read, expected) {
      #expect(got.name == want.name)
      #expect(got.items.count == want.items.count, "in \(want.name.debugDescription)")
      for (gotItem, wantItem) in zip(got.items, want.items) {
        #expect(gotItem == wantItem, "in \(want.name.debugDescription)")
      }
    }
    // Imported into another visitor, the lists are the same.
    var again = DataModel()
    try again.addImported(read)
    #expect(taskLists(again) == expected)
  }

  @Test("Hostile texts: punctuation alone and in runs, block markers, HTML, entities, URLs, emoji")
  func hostile() throws {
    try roundTrip(Self.hostileLists())
  }

  @Test("Random texts of punctuation, letters and spaces, seeded")
  func random() throws {
    var generator = SeededGenerator(seed: 0x4D61_726B_646F_776E)
    for _ in 0..<20 {
      let texts = HostileTexts.random(60, using: &generator)
      let lists = stride(from: 0, to: texts.count, by: 10).map { start in
        ImportedList(
          name: texts[start],
          items: texts[start..<(start + 10)].map {
            ImportedItem(text: $0, checked: Bool.random(using: &generator))
          })
      }
      let usable = lists.filter { (try? TextInput.clean($0.name)) != nil }
        .map { list in
          var list = list
          list.items = list.items.filter { (try? TextInput.clean($0.text)) != nil }
          return list
        }
      try roundTrip(usable)
    }
  }

  @Test("An empty list is its heading alone, which an import does not make a list")
  func emptyList() throws {
    let model = try model([
      ImportedList(name: "Empty"), ImportedList(name: "Full", items: [ImportedItem(text: "a")]),
    ])
    let read = try MarkdownImport.lists(
      from: MarkdownExport.document(model), untitledListName: "U")
    #expect(read == [ImportedList(name: "Full", items: [ImportedItem(text: "a")])])
  }

  /// Items of 1,000 characters dense with marks, as many as a Markdown file may hold (each
  /// item's escaped marks are about 880 of the 160,000 parts `TreeSize` allows).
  @Test("150 items of 1,000 characters dense with marks: all of them come back")
  func largest() throws {
    let text = String(repeating: "*[x](y)_ ", count: 110) + "end"
    let model = try model([
      ImportedList(
        name: "Large",
        items: (0..<150).map {
          ImportedItem(text: "\($0) " + text, checked: $0 % 2 == 0)
        })
    ])
    let read = try MarkdownImport.lists(
      from: MarkdownExport.document(model), untitledListName: "U")
    #expect(read == taskLists(model))
  }
}

@Suite("The Markdown export as GitHub's cmark-gfm renders it")
struct MarkdownRenderTests {
  /// The export of `lists` rendered, with what cmark-gfm must show for it.
  /// The autolink extension finds e-mail addresses in the text once it is
  /// decoded, where no escape reaches: those links, which show the text
  /// itself, are taken out before comparing when `emailLinks` allows them.
  func check(_ lists: [ImportedList], extensions: [String], emailLinks: Bool = false) throws {
    let model = try model(lists)
    var html = try CMarkGFMCommand.html(MarkdownExport.document(model), extensions: extensions)
    if emailLinks {
      html = html.replacingOccurrences(
        of: #"<a href="(mailto|xmpp):[^"<>]*">([^<]*)</a>"#, with: "$2", options: .regularExpression
      )
    }
    var expected = ""
    for list in model.lists {
      expected += "<h1>\(CMarkGFMCommand.escaped(list.name))</h1>\n"
      guard !list.items.isEmpty else { continue }
      expected += "<ul>\n"
      for item in list.items {
        let box =
          item.checked
          ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" />"
          : "<input type=\"checkbox\" disabled=\"\" />"
        expected += "<li>\(box) \(CMarkGFMCommand.escaped(item.text))</li>\n"
      }
      expected += "</ul>\n"
    }
    let boxes = html.components(separatedBy: "<input type=\"checkbox\"").count - 1
    let checked = html.components(separatedBy: "checked=\"\"").count - 1
    let items = model.lists.reduce(0) { $0 + $1.items.count }
    #expect(boxes == items)
    #expect(checked == model.lists.reduce(0) { $0 + $1.items.count { $0.checked } })
    let got = html.split(separator: "\n", omittingEmptySubsequences: false)
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(got.count == want.count)
    for (line, (gotLine, wantLine)) in zip(got, want).enumerated() where gotLine != wantLine {
      Issue.record(
        "line \(line + 1): rendered \(gotLine.debugDescription), expected \(wantLine.debugDescription)"
      )
    }
  }

  @Test("With the tasklist extension: every item a box in its state, its text exactly")
  func tasklist() throws {
    try check(MarkdownRoundTripTests.hostileLists(), extensions: ["tasklist"])
  }

  @Test("With GitHub's extensions too: no markup but e-mail links showing the same text")
  func github() throws {
    try check(
      MarkdownRoundTripTests.hostileLists(),
      extensions: ["tasklist", "autolink", "strikethrough", "table", "tagfilter"], emailLinks: true)
  }
}
