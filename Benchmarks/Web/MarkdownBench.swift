import ChecklistsModel
import Interchange

/// The Markdown task list's export and import of 5,000 items (release
/// build): the import's goal is 100 ms, parsing and adding to a model.
@MainActor
func benchMarkdown() throws {
  var model = DataModel()
  try model.addImported([
    ImportedList(
      name: "Five thousand",
      items: (0..<5_000).map {
        ImportedItem(text: "Pack item number \($0) *with* [care] & C:\\stuff", checked: $0 % 3 == 0)
      })
  ])
  let exported = MarkdownExport.document(model)
  report(
    "MarkdownExport.document (5,000 items, \(exported.count) bytes)",
    measure(20) { sink &+= MarkdownExport.document(model).count }, goal: 20_000_000)
  var handWritten = ""
  for section in 0..<10 {
    handWritten += "## Section \(section)\n\nSome *notes* with a [link](https://example.com).\n\n"
    for number in 0..<500 {
      handWritten +=
        "- [\(number % 4 == 0 ? "x" : " ")] Item \(number) with **bold**, `code` and [a link](u)\n"
      if number % 50 == 0 { handWritten += "  - [ ] a nested task\n" }
    }
    handWritten += "\n"
  }
  for (name, bytes) in [("our export", exported), ("hand-written", Array(handWritten.utf8))] {
    let read = try MarkdownImport.lists(from: bytes, untitledListName: "Imported")
    let items = read.reduce(0) { $0 + $1.items.count }
    report(
      "MarkdownImport.lists (\(name), \(items) items, \(bytes.count) bytes)",
      measureCPU(10) {
        sink &+= (try? MarkdownImport.lists(from: bytes, untitledListName: "Imported"))?.count ?? 0
      }, goal: 100_000_000)
    report(
      "MarkdownImport.lists + DataModel.addImported (\(name))",
      measureCPU(10) {
        var target = DataModel()
        if let lists = try? MarkdownImport.lists(from: bytes, untitledListName: "Imported") {
          sink &+= (try? target.addImported(lists))?.count ?? 0
        }
      }, goal: 100_000_000)
  }
}
