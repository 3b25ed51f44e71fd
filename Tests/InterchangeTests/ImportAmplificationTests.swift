import ChecklistsModel
import Foundation
import Interchange
import TestSupport
import Testing

/// Issue 24: a file whose lists would store far more than it weighs (an
/// item named thousands of times, text of `&`, which the stored XML writes
/// as five bytes) is refused by each importer while it reads, as soon as
/// what it read would pass what anyone may keep.
@Suite("An amplifying file is refused while it is read")
struct ImportAmplificationTests {
  static let ampersands = String(repeating: "&", count: 1_000)
  /// `>` is stored as `&gt;` and, unlike `&`, starts no node of a Markdown parser's tree
  /// (`TreeSize` refuses 1 MB of `&` before parsing).
  static let closers = String(repeating: ">", count: 1_000)
  static let overBudget = "would take more than 2 MB once stored"

  /// Like issue 24's file: one Codable list named twice (the issue's named
  /// it 10 times), whose items name one item of 1,000 `&` 5,000 times
  /// (10,000 items, 51 MB of XML, 11 KB).
  static var codableFile: [UInt8] {
    let item = TestPlist.dict([
      "text": .string(ampersands), "checked": .bool(false), "shouldRemind": .bool(false),
      "itemID": .integer(1),
    ])
    let list = TestPlist.dict([
      "name": .string("x"), "items": .array(Array(repeating: item, count: 5_000)),
      "iconName": .string("Folder"),
    ])
    return TestPlist.array([list, list]).binary
  }

  /// The same as a keyed archive: 10 lists naming one items array, which
  /// names one item's UID 5,000 times.
  static var keyedArchive: TestPlist {
    var builder = ArchiveBuilder()
    let item = builder.item(ampersands)
    let list = builder.list(name: "x", items: Array(repeating: item, count: 5_000))
    let root = builder.array(Array(repeating: list, count: 10))
    return builder.plist(root: root)
  }

  /// A JSON export of one list of `count` items of `text`.
  static func jsonExport(_ count: Int, _ text: String = ampersands) -> [UInt8] {
    let item = #"{"text":"\#(text)","checked":false}"#
    let items = Array(repeating: item, count: count).joined(separator: ",")
    return Array(
      #"{"format":"checklists","version":1,"lists":[{"name":"x","items":[\#(items)]}]}"#.utf8)
  }

  static func markdown(_ count: Int, _ text: String = closers) -> [UInt8] {
    Array(("# x\n" + String(repeating: "- [ ] \(text)\n", count: count)).utf8)
  }

  static func message(_ read: () throws(ImportFailure) -> [ImportedList]) -> String? {
    do {
      let lists = try read()
      return "read \(lists.reduce(0) { $0 + $1.items.count }) items"
    } catch {
      return error.message
    }
  }

  @Test("A plist naming one item thousands of times, Codable or keyed archive, binary or XML")
  func sharedReferences() throws {
    let codable = Self.codableFile
    #expect(codable.count < 12_000)
    let archive = Self.keyedArchive
    for (name, file) in [
      ("codable", codable), ("archive, binary", archive.binary), ("archive, XML", archive.xml),
    ] {
      let refusal = Self.message { () throws(ImportFailure) in
        try AppArchiveImport.lists(from: file)
      }
      #expect(refusal?.contains(Self.overBudget) == true, "\(name): \(refusal ?? "")")
      #expect(refusal?.contains("Read as far as list 1, item 4") == true, "\(name)")
    }
  }

  @Test("JSON of 1,000 items of 1,000 `&` (5 MB stored), Markdown of 1,000 of `>` (4 MB)")
  func escapingHeavyText() {
    let json = Self.message { () throws(ImportFailure) in
      try JSONImport.lists(from: Self.jsonExport(1_000))
    }
    #expect(json?.contains(Self.overBudget) == true, "\(json ?? "")")
    let markdown = Self.message { () throws(ImportFailure) in
      try MarkdownImport.lists(from: Self.markdown(1_000), untitledListName: "x")
    }
    #expect(markdown?.contains(Self.overBudget) == true, "\(markdown ?? "")")
  }

  @Test("What fits the budget is read: 400 items of 1,000 `&`, 500 of `>` (2.06 MB stored)")
  func withinTheBudget() throws {
    #expect(try JSONImport.lists(from: Self.jsonExport(400))[0].items.count == 400)
    #expect(
      try MarkdownImport.lists(from: Self.markdown(500), untitledListName: "x")[0].items.count
        == 500)
    // Non-ASCII text is charged by its UTF-8 bytes: 700 items of 1,000 "漢" are 2.2 MB.
    let cjk = String(repeating: "漢", count: 1_000)
    #expect(try JSONImport.lists(from: Self.jsonExport(600, cjk))[0].items.count == 600)
    let refusal = Self.message { () throws(ImportFailure) in
      try JSONImport.lists(from: Self.jsonExport(700, cjk))
    }
    #expect(refusal?.contains(Self.overBudget) == true, "\(refusal ?? "")")
  }

  @Test("Reading stops at the cap: what was charged never passes it")
  func theBudgetStopsAtTheCap() throws {
    var budget = ImportBudget()
    #expect(throws: ImportFailure.self) {
      try AppArchiveImport.lists(from: Self.codableFile, budget: &budget)
    }
    // Each use of the shared item is charged: 149 bytes around its 5,000.
    let perItem = 149 + 5_000
    #expect(budget.bytes <= ImportBudget.maximumBytes)
    #expect(budget.bytes > ImportBudget.maximumBytes - perItem)
    #expect(budget.lists == 1)
    #expect(budget.items == (ImportBudget.maximumBytes - 212 - 1 - 6 - 3 - 11) / perItem)

    var json = ImportBudget()
    #expect(throws: ImportFailure.self) {
      try JSONImport.lists(from: Self.jsonExport(1_000), budget: &json)
    }
    #expect(json.items == budget.items)
    var markdown = ImportBudget()
    #expect(throws: ImportFailure.self) {
      try MarkdownImport.lists(from: Self.markdown(1_000), untitledListName: "x", budget: &markdown)
    }
    #expect(markdown.items == (ImportBudget.maximumBytes - 212 - 1 - 6 - 3 - 11) / (149 + 4_000))
  }

  @Test("Texts are charged after XML escaping")
  func escaping() {
    #expect(ImportBudget.escapedCount("a&b<c>d") == 4 + 5 + 4 + 4)
    #expect(ImportBudget.escapedCount("é漢") == 2 + 3)
    #expect(ImportBudget.escapedCount("") == 0)
  }
}
