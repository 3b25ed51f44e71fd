import Foundation
import Testing

@testable import ChecklistsModel

/// A list's change log: one revision per change of its name or items,
/// naming every resource made, changed, moved or removed, bounded so that
/// a token older than what it keeps is not answered.
@Suite struct ChangeLogTests {
  @Test func aRevisionNamesWhatChangedSinceAnEarlierOne() {
    var log = ChangeLog()
    #expect(log.isEmpty && log.names(after: 0) == [])
    log.record(["1.ics", "2.ics"])
    log.record([])
    log.record(["1.ics"])
    #expect(log.revision == 3)
    #expect(log.names(after: 0) == ["2.ics", "1.ics"])
    #expect(log.names(after: 1) == ["1.ics"])
    #expect(log.names(after: 2) == ["1.ics"])
    #expect(log.names(after: 3) == [])
    #expect(log.names(after: 4) == nil)
    #expect(log.names(after: -1) == nil)
  }

  @Test func theOldestChangesGoAndTheirRevisionsWithThem() {
    var log = ChangeLog()
    for number in 1...ChangeLog.capacity { log.record(["\(number).ics"]) }
    #expect(log.names(after: 0)?.count == ChangeLog.capacity)
    log.record(["new.ics"])
    #expect(log.names(after: 0) == nil)
    #expect(log.names(after: 1)?.first == "2.ics")
    // One revision of more than the log keeps: no earlier token is answered.
    log.record((0..<(ChangeLog.capacity + 5)).map { "bulk-\($0).ics" })
    #expect(log.changes.isEmpty)
    #expect(log.names(after: log.revision - 1) == nil)
    #expect(log.names(after: log.revision) == [])
    log.record(["after.ics"])
    #expect(log.names(after: log.revision - 1) == ["after.ics"])
  }

  /// A log out of order (a hand-edited file) reads as one that answers no
  /// earlier token; the list with it still reads.
  @Test func aLogOutOfOrderReadsAsOneThatAnswersNothingOlder() throws {
    let list = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>changes</key><dict>
      <key>changes</key><array><dict><key>name</key><string>1.ics</string>
      <key>revision</key><integer>9</integer></dict></array>
      <key>revision</key><integer>3</integer><key>since</key><integer>1</integer></dict>
      <key>icon</key><string>folder</string><key>id</key><integer>1</integer>
      <key>items</key><array/><key>name</key><string>Tasks</string></dict></plist>
      """
    let read = try PropertyListDecoder().decode(Checklist.self, from: Data(list.utf8))
    #expect(read.name == "Tasks")
    #expect(read.changes.revision == 3 && read.changes.changes.isEmpty)
    #expect(read.changes.names(after: 2) == nil)
    #expect(read.changes.names(after: 3) == [])
  }

  @Test func theModelRecordsEachListsChangedResources() throws {
    var stored = DataModel()
    let groceries = try stored.addList(name: "Groceries", icon: .groceries)
    let other = try stored.addList(name: "Other", icon: .none)
    let milk = try stored.addItem(text: "Milk", toList: groceries)
    let eggs = try stored.addItem(text: "Eggs", toList: groceries)
    _ = try stored.addItem(text: "Bread", toList: groceries)

    var model = stored
    _ = try model.toggleItem(id: eggs, inList: groceries)
    model.recordChanges(since: stored)
    #expect(model.checklist(id: groceries)?.changes.names(after: 0) == ["\(eggs).ics"])
    #expect(model.checklist(id: other)?.changes.isEmpty == true)

    // A removal: its name, and every to-do after it (their places changed).
    stored = model
    _ = try model.deleteItem(id: milk, inList: groceries, at: .now)
    model.recordChanges(since: stored)
    let log = try #require(model.checklist(id: groceries)?.changes)
    #expect(log.revision == 2)
    #expect(Set(log.names(after: 1) ?? []) == ["\(milk).ics", "\(eggs).ics", "\(eggs + 1).ics"])

    // More changes than the log keeps (Check all): a revision no earlier
    // token reaches, and no name made.
    stored = model
    let many = try model.addList(name: "Many", icon: .none)
    for number in 0...ChangeLog.capacity { _ = try model.addItem(text: "\(number)", toList: many) }
    model.recordChanges(since: stored)
    stored = model
    for item in model.checklist(id: many)?.items ?? [] {
      _ = try model.toggleItem(id: item.id, inList: many)
    }
    model.recordChanges(since: stored)
    let checkedAll = try #require(model.checklist(id: many)?.changes)
    #expect(checkedAll.revision == 1 && checkedAll.changes.isEmpty)
    #expect(checkedAll.names(after: 0) == nil && checkedAll.names(after: 1) == [])

    // A rename is a revision with no resource; nothing changed, none.
    stored = model
    _ = try model.updateList(id: other, name: "Renamed", icon: .none)
    model.recordChanges(since: stored)
    #expect(model.checklist(id: other)?.changes.revision == 1)
    #expect(model.checklist(id: other)?.changes.names(after: 0) == [])
    stored = model
    model.recordChanges(since: stored)
    #expect(model.checklist(id: other)?.changes.revision == 1)
    #expect(model.checklist(id: groceries)?.changes.revision == 2)
  }
}
