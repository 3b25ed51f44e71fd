import AppArchiveFixture
import ChecklistsModel
import Foundation
import Interchange
import TestSupport
import Testing

/// The message `lists(from:)` refuses `bytes` with, or nil when it reads them.
func refusal(_ bytes: [UInt8]) -> String? {
  do {
    _ = try AppArchiveImport.lists(from: bytes)
    return nil
  } catch {
    return error.message
  }
}

/// The message for both encodings of `plist` (which must agree), or a note that differs.
func refusal(_ plist: TestPlist) -> String? {
  let binary = refusal(plist.binary)
  let xml = refusal(plist.xml)
  return binary == xml ? binary : "binary: \(binary ?? "read"); XML: \(xml ?? "read")"
}

/// A valid archive of one list with one item, then changed by `change`.
func archive(_ change: (inout ArchiveBuilder, _ list: UInt64, _ item: UInt64) -> Void) -> TestPlist
{
  var builder = ArchiveBuilder()
  let item = builder.item("Milk")
  let list = builder.list(name: "Groceries", items: [item])
  let root = builder.array([list])
  change(&builder, list, item)
  return builder.plist(root: root)
}

@Suite("A file that is not the app's, or is damaged, is refused with a sentence saying why")
struct AppArchiveRefusalTests {
  @Test("Not a property list")
  func notAPropertyList() {
    #expect(refusal(Array("Milk, eggs".utf8)) == "This file is not a property list.")
    #expect(refusal([]) == "This file is not a property list.")
    #expect(
      refusal(Array("bplist01".utf8) + [UInt8](repeating: 0, count: 40))
        == "This binary property list is of a version that cannot be read (only “bplist00” is).")
  }

  @Test("A due date of NaN seconds, which the reader reads, is refused")
  func nanDueDate() {
    // Found by fuzzing (a date of NaN seconds, which no two NaNs compare equal to).
    let codable = TestPlist.array([
      .dict([
        "name": .string("L"),
        "items": .array([.dict(["text": .string("Milk"), "dueDate": .date(.nan)])]),
      ])
    ])
    #expect(refusal(codable.binary) == "List 1, item 1: “dueDate” is not a valid date.")
  }

  @Test("A property list of neither form")
  func neitherForm() {
    let neither =
      "This property list is not a Checklists.plist of the iOS app: it is neither a keyed archive of checklists nor a list of checklists."
    #expect(refusal(TestPlist.string("Milk")) == neither)
    #expect(refusal(TestPlist.dict(["name": .string("Groceries")])) == neither)
    #expect(
      refusal(TestPlist.dict(["lists": .array([]), "nextListID": .integer(1)]))
        == "This is a Checklists.plist of this site, not of the iOS app; to bring lists from this site, import its JSON export."
    )
  }

  @Test("An archive of another archiver, version or root")
  func header() {
    var plist = archive { _, _, _ in }
    guard case .dictionary(var entries) = plist else { return }
    entries[0].value = .string("NSArchiver")
    #expect(
      refusal(TestPlist.dictionary(entries))
        == "This archive was written by “NSArchiver”; only archives of NSKeyedArchiver can be read."
    )
    plist = archive { _, _, _ in }
    guard case .dictionary(var entries) = plist else { return }
    entries[1].value = .integer(200_000)
    #expect(
      refusal(TestPlist.dictionary(entries))
        == "This archive is of version 200000; only version 100000, which every NSKeyedArchiver writes, can be read."
    )
    var builder = ArchiveBuilder()
    let root = builder.array([])
    #expect(
      refusal(builder.plist(root: root, rootKey: "root"))
        == "This archive holds no checklists: its root is not “Checklists” (it holds “root”).")
  }

  @Test("A UID beyond the archive's objects")
  func uidOutOfRange() {
    let plist = archive { builder, _, item in
      builder.set(
        item, builder.instanceObject("ChecklistItem", [.init(key: "Text", value: .uid(99))]))
    }
    #expect(refusal(plist) == "The archive refers to object 99, which it does not hold.")
    var builder = ArchiveBuilder()
    #expect(
      refusal(builder.plist(root: 7)) == "The archive refers to object 7, which it does not hold.")
    let root = builder.add(.dict(["NS.objects": .array([]), "$class": .uid(1_000_000)]))
    #expect(
      refusal(builder.plist(root: root))
        == "The archive refers to object 1000000, which it does not hold.")
  }

  @Test("An object that contains itself, directly or through others")
  func cycles() {
    // The list's items array holds the list.
    let direct = archive { builder, list, _ in
      guard case .dictionary(let fields) = builder.objects[Int(list)],
        case .uid(let items) = fields.first(where: { $0.key == "Items" })!.value
      else { return }
      builder.set(items, builder.arrayObject([list]))
    }
    #expect(refusal(direct)?.hasPrefix("The archive is circular: object ") == true)
    #expect(refusal(direct)?.contains("contains itself (through object ") == true)
    // The root array holds itself.
    var builder = ArchiveBuilder()
    let root = builder.reserve()
    builder.set(root, builder.arrayObject([root]))
    #expect(
      refusal(builder.plist(root: root)) == "The archive is circular: object 1 contains itself.")
    // An item's text refers to the item.
    var itemUID: UInt64 = 0
    let textLoop = archive { builder, _, item in
      itemUID = item
      builder.set(
        item, builder.instanceObject("ChecklistItem", [.init(key: "Text", value: .uid(item))]))
    }
    #expect(refusal(textLoop) == "The archive is circular: object \(itemUID) contains itself.")
  }

  @Test("A class the app never archived")
  func unknownClass() {
    let plist = archive { builder, _, item in
      builder.set(
        item, builder.instanceObject("NSDictionary", [.init(key: "NS.keys", value: .array([]))]))
    }
    #expect(
      refusal(plist)
        == "The archive holds an object of class “NSDictionary”, which the Checklists app does not archive (it archives Checklist, ChecklistItem, NSArray, NSString and NSDate)."
    )
    for name in ["Checklists.Checklist.Extra", "1Module.Checklist", ".Checklist", "ChecklistItems"]
    {
      let renamed = archive { builder, _, item in
        builder.set(item, builder.instanceObject(name, []))
      }
      #expect(refusal(renamed)?.contains("class “\(name)”") == true, "\(name)")
    }
  }

  @Test("Objects and values of the wrong type, named by list and item")
  func wrongTypes() {
    let textNumber = archive { builder, _, item in
      let number = builder.add(.integer(3))
      builder.set(
        item, builder.instanceObject("ChecklistItem", [.init(key: "Text", value: .uid(number))]))
    }
    #expect(refusal(textNumber) == "List 1, item 1: “Text” is an integer, not a string.")
    let itemsString = archive { builder, list, _ in
      let text = builder.string("Milk")
      let name = builder.string("Groceries")
      builder.set(
        list,
        builder.instanceObject(
          "Checklist",
          [.init(key: "Name", value: .uid(name)), .init(key: "Items", value: .uid(text))]))
    }
    #expect(refusal(itemsString) == "List 1: “Items” is a string, not an array.")
    let checkedString = archive { builder, _, item in
      builder.set(
        item,
        builder.objects[
          Int(builder.item("Milk", replacing: [.init(key: "Checked", value: .string("yes"))]))])
    }
    #expect(
      refusal(checkedString) == "List 1, item 1: “Checked” is a string, not a true/false value.")
    let itemIDReal = archive { builder, _, item in
      builder.set(
        item,
        builder.objects[
          Int(builder.item("Milk", replacing: [.init(key: "ItemID", value: .real(1.5))]))])
    }
    #expect(refusal(itemIDReal) == "List 1, item 1: “ItemID” is a real number, not an integer.")
    let dueString = archive { builder, _, item in
      let text = builder.string("tomorrow")
      builder.set(
        item,
        builder.objects[
          Int(builder.item("Milk", replacing: [.init(key: "DueDate", value: .uid(text))]))])
    }
    #expect(refusal(dueString) == "List 1, item 1: “DueDate” is a string, not a date.")
    let itemIsDate = archive { builder, _, item in
      builder.set(item, builder.instanceObject("NSDate", [.init(key: "NS.time", value: .real(0))]))
    }
    #expect(refusal(itemIsDate) == "List 1, item 1 is a date, not a checklist item.")
    let listIsItem = archive { builder, list, item in
      builder.set(list, builder.objects[Int(item)])
    }
    #expect(refusal(listIsItem) == "List 1 is a checklist item, not a checklist.")
    let inlineText = archive { builder, _, item in
      builder.set(
        item, builder.instanceObject("ChecklistItem", [.init(key: "Text", value: .string("Milk"))]))
    }
    #expect(
      refusal(inlineText)
        == "List 1, item 1: “Text” is a string, where the archive should refer to an object.")
    let noText = archive { builder, _, item in
      builder.set(item, builder.instanceObject("ChecklistItem", []))
    }
    #expect(refusal(noText) == "List 1, item 1 has no “Text”.")
    let badTime = archive { builder, _, item in
      builder.set(item, builder.objects[Int(builder.item("Milk", due: .nan))])
    }
    #expect(refusal(badTime) == "List 1, item 1: “DueDate” is not a valid date.")
  }

  @Test("Codable plists with values of the wrong type")
  func codableWrongTypes() {
    func codable(_ item: KeyValuePairs<String, TestPlist>) -> TestPlist {
      .array([.dict(["name": .string("Groceries"), "items": .array([.dict(item)])])])
    }
    #expect(
      refusal(codable(["text": .integer(1)]))
        == "List 1, item 1: “text” is an integer, not a string.")
    #expect(refusal(codable(["checked": .bool(true)])) == "List 1, item 1 has no “text”.")
    #expect(
      refusal(codable(["text": .string("Milk"), "dueDate": .string("today")]))
        == "List 1, item 1: “dueDate” is a string, not a date.")
    #expect(
      refusal(codable(["text": .string("Milk"), "shouldRemind": .integer(1)]))
        == "List 1, item 1: “shouldRemind” is an integer, not a true/false value.")
    #expect(
      refusal(codable(["text": .string("Milk"), "itemID": .string("7")]))
        == "List 1, item 1: “itemID” is a string, not an integer.")
    #expect(
      refusal(TestPlist.array([.dict(["name": .string("A"), "items": .dict([:])])]))
        == "List 1: “items” is a dictionary, not an array.")
    #expect(refusal(TestPlist.array([.string("A")])) == "List 1 is a string, not a dictionary.")
    #expect(refusal(TestPlist.array([.dict(["items": .array([])])])) == "List 1 has no “name”.")
  }

  @Test("More lists or items than can be kept, refused before they are read")
  func limits() throws {
    var builder = ArchiveBuilder()
    let lists = (0...Limits.maximumLists).map { _ in builder.list(name: "L", items: []) }
    let listsRoot = builder.array(lists)
    let manyLists = builder.plist(root: listsRoot)
    let tooManyLists = "This file holds more than 500 lists; at most 500 can be kept."
    #expect(refusal(manyLists) == tooManyLists)
    let emptyLists = (0...Limits.maximumLists).map { _ in
      AppArchiveFixture.List(name: "L", icon: "Folder", items: [])
    }
    #expect(
      refusal(try AppArchiveFixture.codablePlist(emptyLists, format: .binary)) == tooManyLists)

    builder = ArchiveBuilder()
    let small = builder.list(name: "Small", items: [])
    let items = (0...Limits.maximumItemsPerList).map { builder.item("\($0)") }
    let bigList = builder.list(name: "Big", items: items)
    let itemsRoot = builder.array([small, bigList])
    let manyItems = builder.plist(root: itemsRoot)
    let tooManyItems = "List 2 holds more than 5000 items; a list holds at most 5000."
    #expect(refusal(manyItems) == tooManyItems)
    let big = [
      AppArchiveFixture.List(name: "Small", icon: "Folder", items: []),
      .init(
        name: "Big", icon: "Folder",
        items: (0...Limits.maximumItemsPerList).map { AppArchiveFixture.Item(text: "\($0)") }),
    ]
    #expect(refusal(try AppArchiveFixture.codablePlist(big, format: .xml)) == tooManyItems)
  }

  @Test("One items array named by many lists is charged each time it is named")
  func sharedItemsInAll() throws {
    let item = TestPlist.dict(["text": .string("Milk")])
    let list = TestPlist.dict([
      "name": .string("L"), "items": .array(Array(repeating: item, count: 5_000)),
    ])
    let file = TestPlist.array(Array(repeating: list, count: 11)).binary
    #expect(file.count < 20_000)
    // Each item stores 153 bytes: two lists of 5,000 fit in 2 MB, a third does not.
    #expect(
      refusal(file)
        == "Read as far as list 3, item 3703, this file’s lists would take more than 2 MB once stored, more than anyone’s checklists can keep (2 MB in all)."
    )
    #expect(
      try AppArchiveImport.lists(from: TestPlist.array([list, list]).binary).count == 2)
  }
}
