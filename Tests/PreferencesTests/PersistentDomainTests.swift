import Foundation
import Support
import TestSupport
import Testing

@testable import Preferences

/// USERDEFAULTS.md, "Persistent domains and notifications", and the
/// issue's storage rules.
@Suite struct PersistentDomainTests {
  let temporary = TemporaryDirectory("preferences")

  @Test func persistentDomainAfterRemovalIsEmpty() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    #expect(defaults.persistentDomain(forName: directory) == nil)
    try defaults.setPersistentDomain(["A": 1, "B": "b"], forName: directory)
    #expect(defaults.persistentDomain(forName: directory)?["A"] as? Int == 1)
    try defaults.removePersistentDomain(forName: directory)
    let after = defaults.persistentDomain(forName: directory)
    #expect(after == nil || after!.isEmpty)
    #expect(defaults.scope(directory).integer(forKey: "A") == 0)
  }

  @Test func setAndRemovePersistentDomainNotifyOnceEach() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    try defaults.setPersistentDomain(["A": 1, "B": 2], forName: directory)
    #expect(recorder.changes == [PreferencesChange(directory: directory, keys: ["A", "B"])])
    try defaults.setPersistentDomain(["A": 1, "B": 2], forName: directory)  // equal: nothing
    #expect(recorder.changes.count == 1)
    try defaults.removePersistentDomain(forName: directory)
    #expect(recorder.changes.count == 2)
    #expect(recorder.changes.last?.keys == ["A", "B"])
    #expect(try parsedFile(directory + "/Preferences.plist").count == 0)
  }

  @Test func setAndRemoveNotifyOncePerEffectiveChange() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    let token = recorder.observe(defaults)
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")
    scope.set(1, forKey: "A")  // equal: no change
    scope.set(false, forKey: "FirstTime")
    scope.removeObject(forKey: "Missing")  // nothing to remove
    _ = try scope.commit()
    #expect(
      recorder.changes == [
        PreferencesChange(directory: directory, keys: ["A"]),
        PreferencesChange(directory: directory, keys: ["FirstTime"]),
      ])
    let second = defaults.scope(directory)
    second.removeObject(forKey: "A")
    _ = try second.commit()
    #expect(recorder.changes.count == 3)
    defaults.removeObserver(token)
    let third = defaults.scope(directory)
    third.set(5, forKey: "A")
    _ = try third.commit()
    #expect(recorder.changes.count == 3, "a removed observer hears nothing")
  }

  @Test func equalValueWritesNothingAndNotifiesNothing() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let first = defaults.scope(directory)
    first.set("x", forKey: "A")
    _ = try first.commit()
    #expect(defaults.writeCount == 1)
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let inode = try inodeOf(directory + "/Preferences.plist")
    let second = defaults.scope(directory)
    second.set("x", forKey: "A")
    #expect(!second.hasChanges)
    _ = try second.commit()
    #expect(defaults.writeCount == 1)
    #expect(try inodeOf(directory + "/Preferences.plist") == inode)
    #expect(recorder.changes.isEmpty)
  }

  @Test func threeSetsInOneRequestWriteOnce() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")
    scope.set(true, forKey: "B")
    scope.set("c", forKey: "C")
    #expect(!FileManager.default.fileExists(atPath: directory + "/Preferences.plist"))
    _ = try scope.commit()
    #expect(defaults.writeCount == 1)
    _ = try scope.commit()  // nothing left
    #expect(defaults.writeCount == 1)
    let file = try parsedFile(directory + "/Preferences.plist")
    #expect(file["A"] as? Int == 1)
    #expect(file["B"] as? Bool == true)
    #expect(file["C"] as? String == "c")
  }

  @Test func resetIsOneChangeOneNotificationAndLeavesOtherKeys() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    defaults.register(defaults: ["OpenLastList": true, "HideCheckedItems": false])
    let setup = defaults.scope(directory)
    setup.set(false, forKey: "OpenLastList")
    setup.set(true, forKey: "HideCheckedItems")
    setup.set(false, forKey: "FirstTime")
    _ = try setup.commit()
    let writes = defaults.writeCount
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)

    let scope = defaults.scope(directory, cookies: ["ChecklistIndex": "2"])
    scope.resetToRegisteredDefaults(forKeys: ["OpenLastList", "HideCheckedItems", "ChecklistIndex"])
    #expect(scope.bool(forKey: "OpenLastList"))
    #expect(!scope.bool(forKey: "HideCheckedItems"))
    #expect(scope.integer(forKey: "ChecklistIndex") == -1)
    let cookies = try scope.commit()
    #expect(cookies == [.remove(key: "ChecklistIndex")])
    #expect(defaults.writeCount == writes + 1)
    #expect(
      recorder.changes == [
        PreferencesChange(
          directory: directory, keys: ["ChecklistIndex", "HideCheckedItems", "OpenLastList"])
      ])
    let file = try parsedFile(directory + "/Preferences.plist")
    #expect(file.count == 1)
    #expect(file["FirstTime"] as? Bool == false)

    let again = defaults.scope(directory)
    again.resetToRegisteredDefaults(forKeys: ["OpenLastList", "HideCheckedItems"])
    #expect(!again.hasChanges, "resetting defaults that are already defaults changes nothing")
  }

  @Test func nonPropertyListValuesThrowATypedError() {
    let scope = makeDefaults().scope(temporary.makeSubdirectory())
    struct Custom {}
    #expect(throws: PreferencesError.notAPropertyListValue(key: "A", typeName: "Custom")) {
      try scope.set(Custom(), forKey: "A")
    }
    #expect(throws: (any Error).self) { try scope.set([1, Custom()] as [Any], forKey: "B") }
    #expect(throws: (any Error).self) { try scope.set(["x": NSNull()], forKey: "C") }
    #expect(throws: (any Error).self) { try scope.set([1: "one"] as [Int: String], forKey: "D") }
    #expect(throws: (any Error).self) { try scope.set(UInt64.max, forKey: "E") }
    #expect(!scope.hasChanges)
    let error = #expect(throws: PreferencesError.self) {
      try scope.set("abc" as Any, forKey: "ChecklistIndex")
    }
    guard case .notACookieValue(let key, _)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(key == "ChecklistIndex")
  }

  @Test func setNilRemoves() throws {
    let defaults = makeDefaults()
    let scope = defaults.scope(temporary.makeSubdirectory())
    scope.set("x", forKey: "A")
    try scope.set(nil, forKey: "A")
    #expect(scope.object(forKey: "A") == nil)
    _ = try scope.commit()
    #expect(defaults.writeCount == 0, "set then removed: nothing to write")
  }

  @Test func controlCharactersAreStripped() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set("a\u{0}b\u{7}c\td\ne\rf\u{1B}g", forKey: "Text")
    try scope.set(["k\u{1}": ["x\u{2}y"]], forKey: "Nested")
    #expect(scope.string(forKey: "Text") == "abc\td\ne\rfg")
    _ = try scope.commit()
    let reread = makeDefaults().scope(directory)
    #expect(reread.string(forKey: "Text") == "abc\td\ne\rfg")
    #expect(reread.dictionary(forKey: "Nested")?["k"] as? [String] == ["xy"])
  }

  @Test func noDirectoryThrowsForPersistentChangesOnly() throws {
    let defaults = makeDefaults()
    let cookieOnly = defaults.scope(nil)
    cookieOnly.set(3, forKey: "ChecklistIndex")
    #expect(try cookieOnly.commit().map(\.value) == ["3"])
    let scope = defaults.scope(nil)
    scope.set(false, forKey: "FirstTime")
    #expect(throws: PreferencesError.noDirectory) { try scope.commit() }
    #expect(scope.hasChanges)
  }

  @Test func directoryIsCreatedPrivateOnFirstWriteOnly() throws {
    let base = temporary.makeSubdirectory()
    let directory = base + "/ab/cd/visitor"
    let defaults = makeDefaults()
    let reader = defaults.scope(directory)
    #expect(reader.bool(forKey: "FirstTime"))
    #expect(!FileManager.default.fileExists(atPath: base + "/ab"))
    reader.set(false, forKey: "FirstTime")
    _ = try reader.commit()
    for path in [base + "/ab", base + "/ab/cd", directory] {
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(path)")
    }
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: directory + "/Preferences.plist")[
        .posixPermissions] as? Int
    #expect(fileMode == 0o600)
    #expect(FileManager.default.fileExists(atPath: directory + "/.Preferences.lock"))
  }

  @Test func unparsableFileIsKeptAsideAndNeverOverwritten() throws {
    let directory = temporary.makeSubdirectory()
    let path = directory + "/Preferences.plist"
    let garbage = Data("<plist><dict><key>A</key><integer>1".utf8)
    try garbage.write(to: URL(fileURLWithPath: path))
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    #expect(scope.bool(forKey: "FirstTime"), "defaults apply")
    let problem = try #require(scope.loadProblem)
    #expect(problem.contains("Preferences.plist.corrupt-"), "\(problem)")
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("Preferences.plist.corrupt-") }
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + kept[0])) == garbage)
    #expect(!FileManager.default.fileExists(atPath: path))

    scope.set(false, forKey: "FirstTime")
    _ = try scope.commit()
    #expect(try parsedFile(path)["FirstTime"] as? Bool == false)
    #expect(defaults.scope(directory).loadProblem == nil)
  }

  @Test func corruptionFoundAtCommitIsKeptAsideToo() throws {
    let directory = temporary.makeSubdirectory()
    let path = directory + "/Preferences.plist"
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")  // loads: no file yet
    try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF]).write(
      to: URL(fileURLWithPath: path))
    _ = try scope.commit()
    #expect(scope.loadProblem != nil)
    #expect(try parsedFile(path)["A"] as? Int == 1)
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("Preferences.plist.corrupt-") }
    #expect(kept.count == 1)
  }

  @Test func filesThatAreNotADomainCountAsUnreadable() throws {
    let bodies = [
      "", "not a plist", "<?xml version=\"1.0\"?><plist><array/></plist>",
      "<plist><dict><key>A</key></dict></plist>", "bplist00",
    ]
    for body in bodies {
      let directory = temporary.makeSubdirectory()
      try Data(body.utf8).write(to: URL(fileURLWithPath: directory + "/Preferences.plist"))
      let scope = makeDefaults().scope(directory)
      #expect(scope.loadProblem != nil, "\(body)")
      #expect(scope.integer(forKey: "A") == 0)
    }
  }

  @Test func truncatedBinaryFilesNeverCrashTheLoader() throws {
    let directory = temporary.makeSubdirectory()
    let scope = makeDefaults(format: .binary).scope(directory)
    try scope.set(
      ["a": [1, 2.5, "x", Data([1]), Date(timeIntervalSince1970: 5)] as [Any]], forKey: "D")
    scope.set("text", forKey: "S")
    _ = try scope.commit()
    let path = directory + "/Preferences.plist"
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    for length in 0..<whole.count {
      let truncated = temporary.makeSubdirectory()
      try whole.prefix(length).write(to: URL(fileURLWithPath: truncated + "/Preferences.plist"))
      var flipped = whole
      flipped[length] ^= 0xFF
      let other = temporary.makeSubdirectory()
      try flipped.write(to: URL(fileURLWithPath: other + "/Preferences.plist"))
      for visitor in [truncated, other] {
        let reader = makeDefaults().scope(visitor)
        _ = reader.dictionaryRepresentation()  // must not crash, whatever it finds
        if reader.loadProblem == nil {
          #expect(FileManager.default.fileExists(atPath: visitor + "/Preferences.plist"))
        }
        try? FileManager.default.removeItem(atPath: visitor)
      }
    }
  }

  @Test func unsignedIntegersAboveIntMaxDoNotMakeAFileUnreadable() throws {
    let directory = temporary.makeSubdirectory()
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>Big</key><integer>18446744073709551615</integer></dict></plist>
      """
    try Data(xml.utf8).write(to: URL(fileURLWithPath: directory + "/Preferences.plist"))
    let scope = makeDefaults().scope(directory)
    #expect(scope.loadProblem == nil)
    #expect(scope.double(forKey: "Big") == Double(UInt64.max))
  }

  @Test func binaryFormatIsWrittenAndRead() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults(format: .binary)
    let scope = defaults.scope(directory)
    try scope.set(
      ["a": [1, 2.5, "x", Data([1]), Date(timeIntervalSince1970: 5)] as [Any]], forKey: "D")
    _ = try scope.commit()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/Preferences.plist"))
    #expect(String(decoding: bytes.prefix(6), as: UTF8.self) == "bplist")
    let list = makeDefaults().scope(directory).dictionary(forKey: "D")?["a"] as? [Any]
    #expect(list?.count == 5)
    #expect(list?[4] as? Date == Date(timeIntervalSince1970: 5))
  }

  @Test func anotherProcessesWriteIsSeenThroughTheFileIdentity() throws {
    let directory = temporary.makeSubdirectory()
    let mine = makeDefaults()
    let theirs = makeDefaults()  // a second process: its own cache
    let first = mine.scope(directory)
    first.set(1, forKey: "A")
    _ = try first.commit()
    #expect(theirs.scope(directory).integer(forKey: "A") == 1)
    let change = theirs.scope(directory)
    change.set(2, forKey: "A")
    _ = try change.commit()
    #expect(mine.scope(directory).integer(forKey: "A") == 2, "no stale cache")
  }

  @Test func staleScopeChangesAreReappliedOntoTheFreshFile() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let tabOne = defaults.scope(directory)
    let tabTwo = defaults.scope(directory)
    tabOne.set(1, forKey: "A")
    tabTwo.set(2, forKey: "B")
    _ = try tabOne.commit()
    _ = try tabTwo.commit()
    #expect(tabTwo.integer(forKey: "A") == 1, "the commit refreshed the scope")
    let file = try parsedFile(directory + "/Preferences.plist")
    #expect(file["A"] as? Int == 1)
    #expect(file["B"] as? Int == 2)
  }

  @Test func cacheIsBoundedAndStillCorrect() throws {
    let base = temporary.makeSubdirectory()
    let defaults = makeDefaults(cacheCapacity: 2)
    for index in 0..<5 {
      let scope = defaults.scope(base + "/v\(index)")
      scope.set(index, forKey: "N")
      _ = try scope.commit()
    }
    for index in 0..<5 {
      #expect(defaults.scope(base + "/v\(index)").integer(forKey: "N") == index)
    }
    var cache = LRUCache<String, Int>(capacity: 2)
    cache.setValue(1, forKey: "a")
    cache.setValue(2, forKey: "b")
    _ = cache.value(forKey: "a")
    cache.setValue(3, forKey: "c")
    #expect(cache.count == 2)
    #expect(cache.value(forKey: "b") == nil, "least recently used goes first")
    #expect(cache.value(forKey: "a") == 1)
  }

  private func inodeOf(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
  }
}
