import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The files are standard plists: Python's plistlib reads them and finds
/// the schema of docs/data-format.md.
@Suite struct PlistInteropTests {
  static let checker = """
    import datetime, plistlib, sys
    ICONS = {"none", "appointments", "birthdays", "chores", "drinks", "folder",
             "groceries", "inbox", "photos", "trips"}
    with open(sys.argv[1], "rb") as f:
        top = plistlib.load(f)
    assert isinstance(top, dict), top
    assert set(top) == {"version", "nextListID", "nextItemID", "nextDeletionID", "lists",
                        "deleted"}, top.keys()
    assert top["version"] == 2 and type(top["version"]) is int
    for key in ("nextListID", "nextItemID", "nextDeletionID"):
        assert type(top[key]) is int and top[key] >= 1, key
    list_ids, item_ids = set(), set()
    def check_item(item, extra=set()):
        assert {"id", "text", "checked"} | extra <= set(item), item
        assert set(item) <= {"id", "text", "checked", "dueDate", "shouldRemind"} | extra, item
        assert type(item["id"]) is int and 0 < item["id"] < top["nextItemID"]
        assert item["id"] not in item_ids
        item_ids.add(item["id"])
        assert isinstance(item["text"], str) and item["text"] != ""
        assert type(item["checked"]) is bool
        if "dueDate" in item:
            assert isinstance(item["dueDate"], datetime.datetime), item
        if "shouldRemind" in item:
            assert item["shouldRemind"] is True, item
    def check_list(lst):
        assert set(lst) == {"id", "name", "icon", "items", "sort"}, lst
        assert type(lst["id"]) is int and 0 < lst["id"] < top["nextListID"]
        assert lst["id"] not in list_ids
        list_ids.add(lst["id"])
        assert isinstance(lst["name"], str) and lst["name"].strip() == lst["name"] != ""
        assert lst["icon"] in ICONS
        assert lst["sort"] in ("own", "dueDate")
        for item in lst["items"]:
            check_item(item)
    for lst in top["lists"]:
        check_list(lst)
    kinds = []
    for deletion in top["deleted"]:
        assert 0 < deletion["id"] < top["nextDeletionID"]
        assert isinstance(deletion["deletedAt"], datetime.datetime)
        assert isinstance(deletion["listName"], str) and type(deletion["listID"]) is int
        if "list" in deletion:
            assert set(deletion) == {"id", "deletedAt", "listID", "listName", "list"}
            check_list(deletion["list"])
            kinds.append("list")
        else:
            assert set(deletion) == {"id", "deletedAt", "listID", "listName", "items"}
            for removed in deletion["items"]:
                check_item(removed, {"position"})
                assert type(removed["position"]) is int and removed["position"] >= 0
            kinds.append("items")
    dated = [i for l in top["lists"] for i in l["items"] if "dueDate" in i]
    print(sorted(l["name"] for l in top["lists"]), kinds,
          [(i["dueDate"].isoformat(), i.get("shouldRemind", False)) for i in dated])
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
        let cdata = try model.addItem(text: "]]> not CDATA", toList: list)
        try model.editItem(
          id: cdata, inList: list, text: "]]> not CDATA",
          dueDate: Date(timeIntervalSince1970: 1_795_000_000.75), shouldRemind: true)
        let gone = try model.addList(name: "Gone", icon: .none)
        try model.addItem(text: "with it", toList: gone)
        try model.deleteList(id: gone, at: Date())
        let once = try model.addItem(text: "once", toList: list)
        try model.deleteItem(id: once, inList: list, at: Date())
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
      #expect(
        printed == "['List', 'Épicerie <&>'] ['list', 'items'] [('2026-11-18T11:06:40', True)]\n",
        "\(format)")
    }
  }
}
