import ChecklistsModel
import FileSystem
import Foundation
import Preferences
import Storage
import Support
import TestSupport
import Testing
import checklists

@Suite struct DataCheckTests {
  let temporary = TemporaryDirectory("data-check")
  var data: String { temporary.path }

  private func preferencesPath(_ visitor: VisitorDirectory) -> String {
    PreferencesFile.path(inDirectory: visitor.path)
  }

  @Test func reportsAndRepairsUnreadableFiles() throws {
    let store = makeStore(data)
    let good = VisitorDirectory(dataDirectory: data, visitorID: "good")
    let bad = VisitorDirectory(dataDirectory: data, visitorID: "bad")
    let badPreferences = VisitorDirectory(dataDirectory: data, visitorID: "prefs")
    for visitor in [good, bad, badPreferences] {
      try store.update(visitor, initial: storedOrFirstRun) { _ in }
    }
    let preferences = try PropertyListSerialization.data(
      fromPropertyList: ["OpenLastList": false], format: .xml, options: 0)
    try preferences.write(to: URL(fileURLWithPath: preferencesPath(good)))
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: bad.checklistsPath))
    let array = try PropertyListSerialization.data(
      fromPropertyList: [1, 2], format: .xml, options: 0)
    try array.write(to: URL(fileURLWithPath: preferencesPath(badPreferences)))

    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(report.visitors == 3)
    #expect(report.filesChecked == 5)
    #expect(
      Set(report.problems.map(\.path)) == [bad.checklistsPath, preferencesPath(badPreferences)])
    #expect(!report.isClean)
    #expect(FileManager.default.fileExists(atPath: bad.checklistsPath), "no repair, no move")

    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    #expect(repaired.problems.count == 2)
    #expect(repaired.problems.allSatisfy { $0.keptAs?.contains(".corrupt-") == true })
    #expect(!FileManager.default.fileExists(atPath: bad.checklistsPath))

    let after = DataCheck.run(dataDirectory: data, repair: false)
    #expect(after.isClean, "\(after.problems)")
    #expect(after.visitors == 3)
  }

  /// A version 1 file (written before due dates and deletions) and a
  /// version 2 file both check clean, and checking rewrites neither; a
  /// version 2 file breaking its own rules is reported.
  @Test func versionOneAndTwoFilesAreBothReadable() throws {
    let store = makeStore(data)
    let old = VisitorDirectory(dataDirectory: data, visitorID: "old")
    let new = VisitorDirectory(dataDirectory: data, visitorID: "new")
    let broken = VisitorDirectory(dataDirectory: data, visitorID: "broken")
    for visitor in [old, new, broken] {
      try store.update(visitor, initial: storedOrFirstRun) { _ in }
    }
    let version1: [String: Any] = [
      "version": 1, "nextListID": 2, "nextItemID": 2,
      "lists": [
        [
          "id": 1, "name": "List", "icon": "folder",
          "items": [["id": 1, "text": "Milk", "checked": true]],
        ]
      ],
    ]
    let oldBytes = try PropertyListSerialization.data(
      fromPropertyList: version1, format: .xml, options: 0)
    try oldBytes.write(to: URL(fileURLWithPath: old.checklistsPath))
    try store.update(new, initial: storedOrFirstRun) { model in
      let list = model.lists[0].id
      let item = try model.addItem(text: "Due", toList: list)
      try model.editItem(
        id: item, inList: list, text: "Due", dueDate: Date(timeIntervalSince1970: 1_800_000_000),
        shouldRemind: true)
      try model.deleteItem(
        id: try model.addItem(text: "Gone", toList: list), inList: list, at: Date())
    }
    let newBytes = try Data(contentsOf: URL(fileURLWithPath: new.checklistsPath))
    #expect(String(decoding: newBytes, as: UTF8.self).contains("<integer>2</integer>\n</dict>"))
    var duplicate = version1
    duplicate["version"] = 2
    duplicate["lists"] = [
      ["id": 1, "name": "A", "icon": "none", "sort": "own", "items": [[String: Any]]()],
      ["id": 1, "name": "B", "icon": "none", "sort": "own", "items": [[String: Any]]()],
    ]
    try PropertyListSerialization.data(fromPropertyList: duplicate, format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: broken.checklistsPath))

    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(report.problems.map(\.path) == [broken.checklistsPath])
    #expect(try Data(contentsOf: URL(fileURLWithPath: old.checklistsPath)) == oldBytes)
    #expect(try Data(contentsOf: URL(fileURLWithPath: new.checklistsPath)) == newBytes)
  }

  @Test func strayDirectoriesAreReportedAndEmptyDataIsClean() throws {
    #expect(DataCheck.run(dataDirectory: data, repair: false).isClean)
    try FileManager.default.createDirectory(
      atPath: data + "/users/ab/not-a-key", withIntermediateDirectories: true)
    let report = DataCheck.run(dataDirectory: data, repair: true)
    #expect(report.problems.map(\.path) == [data + "/users/ab/not-a-key"])
  }

  /// `--repair` must set `Preferences.plist` aside under the lock the
  /// Preferences module takes to replace it (`.Preferences.lock`): while a
  /// writer holds it, the repair waits, and a good version the writer puts
  /// in place meanwhile is kept, not moved aside as the corrupt one was.
  @Test func repairWaitsForThePreferencesLockAndKeepsWhatItsHolderWrote() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: "held")
    let path = preferencesPath(visitor)
    try FileManager.default.createDirectory(
      atPath: visitor.path, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
    let good = try PropertyListSerialization.data(
      fromPropertyList: ["OpenLastList": false], format: .xml, options: 0)

    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let writer = DispatchQueue(label: "preferences writer")
    writer.async {
      try? FileLock.withLock(PreferencesFile.lockPath(inDirectory: visitor.path)) {
        held.signal()
        release.wait()
        // What the Preferences module does under this lock: replace the file.
        try AtomicFile.write(good, to: path, durable: false)
      }
    }
    held.wait()

    let report = LockedValue<DataCheck.Report?>(nil)
    let repaired = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [data] in
      let result = DataCheck.run(dataDirectory: data, repair: true)
      report.withLock { $0 = result }
      repaired.signal()
    }
    Thread.sleep(forTimeInterval: 0.5)
    #expect(report.withLock { $0 } == nil, "the repair did not wait for the preferences lock")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: path)) == Data("garbage".utf8),
      "Preferences.plist was moved while its lock was held")

    release.signal()
    #expect(repaired.wait(timeout: .now() + 10) == .success)
    let result = try #require(report.withLock { $0 })
    #expect(result.problems == [], "the version written under the lock is readable")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == good)
    let names = try FileManager.default.contentsOfDirectory(atPath: visitor.path)
    #expect(!names.contains { $0.contains(".corrupt-") }, "\(names)")
  }
}
