import AppArchiveFixture
import ChecklistsModel
import Foundation
import Interchange
import TestSupport
import Testing

/// Lists as the iOS app held them: due dates with and without reminders, checked and
/// unchecked items, text that is not ASCII (a UTF-16 string in a binary plist) or needs
/// escaping in XML, an empty list, every kind of icon name.
let appLists: [AppArchiveFixture.List] = [
  .init(
    name: "Groceries", icon: "Groceries",
    items: [
      .init(text: "Milk", checked: true, dueDate: 1_777_626_000, shouldRemind: true, itemID: 1),
      .init(text: "Crème fraîche & <eggs> 🥚", itemID: 2),
      .init(text: "Bread", checked: false, dueDate: 1_800_000_000, itemID: 5),
    ]),
  .init(name: "Birthdays", icon: "Birthdays", items: []),
  .init(
    name: "Chores", icon: "No Icon",
    items: [.init(text: "Call Ann", checked: true, dueDate: 0, shouldRemind: false, itemID: 9)]),
  .init(name: "Trips", icon: "Trips", items: []),
  .init(name: "Old", icon: "Sparkles", items: [.init(text: "  spaced  ", itemID: -1)]),
]

/// What importing `appLists` gives.
let importedAppLists: [ImportedList] = appLists.map { list in
  ImportedList(
    name: list.name,
    icon: ChecklistIcon.allCases.first { $0.displayName == list.icon } ?? .folder,
    items: list.items.map { item in
      ImportedItem(
        text: item.text, checked: item.checked,
        dueDate: item.dueDate.map(Date.init(timeIntervalSince1970:)),
        shouldRemind: item.shouldRemind)
    })
}

@Suite("The iOS app's Checklists.plist, written by Foundation, imports whole")
struct AppArchiveImportTests {
  static let archiveVariants: [(AppArchiveFixture.Format, String?)] = [
    (.binary, nil), (.binary, "Checklists"), (.xml, nil), (.xml, "Checklists"),
  ]

  @Test(
    "An NSKeyedArchiver archive: names, icons, texts, checkmarks, due dates, reminders",
    arguments: archiveVariants)
  func keyedArchive(format: AppArchiveFixture.Format, prefix: String?) throws {
    let bytes = try AppArchiveFixture.keyedArchive(appLists, format: format, classPrefix: prefix)
    let text = String(decoding: bytes, as: UTF8.self)
    // The class names are the app's, as the archive stores them.
    let expected = (prefix.map { $0 + "." } ?? "") + "ChecklistItem"
    #expect(bytes.starts(with: Array((format == .xml ? "<?xml" : "bplist00").utf8)))
    #expect(text.contains(expected))
    #expect(!text.contains("Fixture"))
    #expect(AppArchiveImport.looksLike(bytes))
    #expect(try AppArchiveImport.lists(from: bytes) == importedAppLists)
  }

  @Test("A Codable plist of PropertyListEncoder", arguments: AppArchiveFixture.Format.allCases)
  func codable(format: AppArchiveFixture.Format) throws {
    let bytes = try AppArchiveFixture.codablePlist(appLists, format: format)
    #expect(AppArchiveImport.looksLike(bytes))
    #expect(try AppArchiveImport.lists(from: bytes) == importedAppLists)
  }

  @Test("The imported lists are added by the model with new ids, all of them")
  func addedToTheModel() throws {
    let bytes = try AppArchiveFixture.keyedArchive(appLists, format: .binary, classPrefix: nil)
    var model = DataModel()
    let ids = try model.addImported(AppArchiveImport.lists(from: bytes))
    #expect(ids.count == appLists.count)
    let groceries = try #require(model.lists.first { $0.name == "Groceries" })
    #expect(groceries.icon == .groceries)
    #expect(groceries.items.map(\.text) == ["Milk", "Crème fraîche & <eggs> 🥚", "Bread"])
    #expect(groceries.items[0].dueDate == Date(timeIntervalSince1970: 1_777_626_000))
    #expect(groceries.items[0].checked && groceries.items[0].shouldRemind)
    #expect(model.lists.first { $0.name == "Old" }?.items.map(\.text) == ["spaced"])
  }

  @Test("An archive of no lists, or a null root, imports nothing")
  func empty() throws {
    for format in AppArchiveFixture.Format.allCases {
      #expect(
        try AppArchiveImport.lists(
          from: AppArchiveFixture.keyedArchive([], format: format, classPrefix: nil)) == [])
      #expect(
        try AppArchiveImport.lists(from: AppArchiveFixture.codablePlist([], format: format)) == [])
    }
    let builder = ArchiveBuilder()
    #expect(try AppArchiveImport.lists(from: builder.plist(root: 0).binary) == [])
  }

  @Test("A 5,000-item list imports whole, archived or Codable, binary or XML")
  func fullList() throws {
    var builder = ArchiveBuilder(prefix: "Checklists.")
    let uids = (1...5_000).map {
      builder.item("Item \($0)", checked: $0 % 3 == 0, due: 800_000_000 + Double($0), id: Int64($0))
    }
    let list = builder.list(name: "Big", icon: "Inbox", items: uids)
    let root = builder.array([list])
    let items = (1...5_000).map {
      AppArchiveFixture.Item(
        text: "Item \($0)", checked: $0 % 3 == 0, dueDate: 1_778_307_200 + Double($0), itemID: $0)
    }
    let lists = [AppArchiveFixture.List(name: "Big", icon: "Inbox", items: items)]
    let files = [
      builder.plist(root: root).binary, builder.plist(root: root).xml,
      try AppArchiveFixture.codablePlist(lists, format: .binary),
      try AppArchiveFixture.codablePlist(lists, format: .xml),
    ]
    for file in files {
      let imported = try AppArchiveImport.lists(from: file)
      #expect(imported.count == 1 && imported.first?.icon == .inbox)
      #expect(imported.first?.items.count == 5_000)
      #expect(
        imported.first?.items.last
          == ImportedItem(
            text: "Item 5000", checked: false,
            dueDate: Date(timeIntervalSinceReferenceDate: 800_005_000)))
    }
  }

  @Test(
    "Strings archived as NSString or NSMutableString instances, and items without due dates or ids")
  func stringInstancesAndMissingFields() throws {
    var builder = ArchiveBuilder(prefix: "MyApp.")
    let text = builder.instance("NSMutableString", [.init(key: "NS.string", value: .string("Tea"))])
    let item = builder.instance(
      "MyApp.ChecklistItem", [.init(key: "Text", value: .uid(text))])
    let name = builder.instance("NSString", [.init(key: "NS.string", value: .string("Drinks"))])
    let items = builder.array([item])
    let list = builder.instance(
      "MyApp.Checklist",
      [.init(key: "Name", value: .uid(name)), .init(key: "Items", value: .uid(items))])
    let root = builder.array([list])
    for bytes in [builder.plist(root: root).binary, builder.plist(root: root).xml] {
      #expect(
        try AppArchiveImport.lists(from: bytes)
          == [ImportedList(name: "Drinks", icon: .folder, items: [ImportedItem(text: "Tea")])])
    }
  }

  @Test("One items array and one string shared by several lists, as the archiver stores them")
  func sharedObjects() throws {
    var builder = ArchiveBuilder()
    let empty = builder.array([])
    let name = builder.string("Same")
    let milk = builder.item("Milk")
    let first = builder.list(name: "A", items: [milk])
    let listClass = builder.classUID("Checklist")
    var lists: [UInt64] = []
    for _ in 0..<3 {
      lists.append(
        builder.add(.dict(["Name": .uid(name), "Items": .uid(empty), "$class": .uid(listClass)])))
    }
    let root = builder.array([first] + lists)
    let imported = try AppArchiveImport.lists(from: builder.plist(root: root).binary)
    #expect(imported.map(\.name) == ["A", "Same", "Same", "Same"])
    #expect(imported.map(\.items.count) == [1, 0, 0, 0])
  }

  @Test("Only UID 0 is nil: a text that is the string “$null” is the visitor's text")
  func nullString() throws {
    var builder = ArchiveBuilder()
    let item = builder.item("$null")
    let list = builder.list(name: "$null", items: [item])
    let root = builder.array([list])
    #expect(
      try AppArchiveImport.lists(from: builder.plist(root: root).binary)
        == [ImportedList(name: "$null", items: [ImportedItem(text: "$null")])])
  }

  @Test("Each of the app's icon names maps to its icon; others to Folder")
  func icons() throws {
    let names = ChecklistIcon.allCases.map(\.displayName) + ["Sparkles", ""]
    let lists = names.map { AppArchiveFixture.List(name: "L", icon: $0, items: []) }
    let imported = try AppArchiveImport.lists(
      from: AppArchiveFixture.codablePlist(lists, format: .xml))
    #expect(imported.map(\.icon) == ChecklistIcon.allCases + [.folder, .folder])
  }
}

@Suite("Only property lists look like the app's file")
struct AppArchiveSniffTests {
  @Test("Binary and XML plists do; JSON, Markdown, other XML and nothing do not")
  func looksLike() {
    #expect(AppArchiveImport.looksLike(Array("bplist00".utf8) + [0, 1]))
    #expect(AppArchiveImport.looksLike(TestPlist.array([]).xml))
    #expect(
      AppArchiveImport.looksLike(Array("\u{FEFF}\n <plist version=\"1.0\"><array/></plist>".utf8)))
    #expect(AppArchiveImport.looksLike(Array("<!DOCTYPE plist><plist><array/></plist>".utf8)))
    #expect(!AppArchiveImport.looksLike([]))
    #expect(!AppArchiveImport.looksLike(Array("{\"lists\": []}".utf8)))
    #expect(!AppArchiveImport.looksLike(Array("# Groceries\n- [ ] Milk\n".utf8)))
    #expect(!AppArchiveImport.looksLike(Array("<?xml version=\"1.0\"?><svg/>".utf8)))
    #expect(!AppArchiveImport.looksLike(Array("bplist01".utf8)))
  }
}
