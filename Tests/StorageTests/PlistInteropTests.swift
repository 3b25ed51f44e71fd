import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The files are standard plists: Python's plistlib reads them and finds
/// the schema of docs/data-format.md.
@Suite struct PlistInteropTests {
  static let checker = """
    import plistlib, sys
    ICONS = {"none", "appointments", "birthdays", "chores", "drinks", "folder",
             "groceries", "inbox", "photos", "trips"}
    with open(sys.argv[1], "rb") as f:
        top = plistlib.load(f)
    assert isinstance(top, dict), top
    assert top["version"] == 1 and type(top["version"]) is int
    for key in ("nextListID", "nextItemID"):
        assert type(top[key]) is int and top[key] >= 1, key
    list_ids, item_ids = set(), set()
    for lst in top["lists"]:
        assert set(lst) == {"id", "name", "icon", "items"}, lst
        assert type(lst["id"]) is int and 0 < lst["id"] < top["nextListID"]
        assert lst["id"] not in list_ids
        list_ids.add(lst["id"])
        assert isinstance(lst["name"], str) and lst["name"].strip() == lst["name"] != ""
        assert lst["icon"] in ICONS
        for item in lst["items"]:
            assert set(item) == {"id", "text", "checked"}, item
            assert type(item["id"]) is int and 0 < item["id"] < top["nextItemID"]
            assert item["id"] not in item_ids
            item_ids.add(item["id"])
            assert isinstance(item["text"], str) and item["text"] != ""
            assert type(item["checked"]) is bool
    print(sorted(l["name"] for l in top["lists"]))
    """

  @Test func pythonPlistlibReadsXMLAndBinaryFiles() throws {
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let temporary = TemporaryDirectory("plist-interop")
      let data = temporary.path
      let visitor = VisitorDirectory(
        dataDirectory: data, visitorID: "0123456789abcdef0123456789abcdef")
      try makeStore(data, format: format).update(visitor, initial: storedOrFirstRun) { model in
        let list = try model.addList(name: "Épicerie <&>", icon: .groceries)
        let milk = try model.addItem(text: "Milk & \"eggs\" 🥚", toList: list)
        try model.toggleItem(id: milk, inList: list)
        try model.addItem(text: "]]> not CDATA", toList: list)
        let gone = try model.addList(name: "Gone", icon: .none)
        try model.deleteList(id: gone)
      }
      let script = data + "/check.py"
      try Self.checker.write(toFile: script, atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", script, visitor.checklistsPath]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let printed = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(format): \(printed)")
      #expect(printed == "['List', 'Épicerie <&>']\n", "\(format)")
    }
  }
}
