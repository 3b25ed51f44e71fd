import Foundation
import Storage
import XCTest

@testable import Preferences

/// USERDEFAULTS.md, "Persistent domains and notifications", and the
/// issue's storage rules.
final class PersistentDomainTests: XCTestCase {
  func testPersistentDomainAfterRemovalIsEmpty() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    XCTAssertNil(defaults.persistentDomain(forName: directory))
    try defaults.setPersistentDomain(["A": 1, "B": "b"], forName: directory)
    XCTAssertEqual(defaults.persistentDomain(forName: directory)?["A"] as? Int, 1)
    try defaults.removePersistentDomain(forName: directory)
    let after = defaults.persistentDomain(forName: directory)
    XCTAssertTrue(after == nil || after!.isEmpty)
    XCTAssertEqual(defaults.scope(directory).integer(forKey: "A"), 0)
  }

  func testSetAndRemovePersistentDomainNotifyOnceEach() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    try defaults.setPersistentDomain(["A": 1, "B": 2], forName: directory)
    XCTAssertEqual(recorder.changes, [PreferencesChange(directory: directory, keys: ["A", "B"])])
    try defaults.setPersistentDomain(["A": 1, "B": 2], forName: directory)  // equal: nothing
    XCTAssertEqual(recorder.changes.count, 1)
    try defaults.removePersistentDomain(forName: directory)
    XCTAssertEqual(recorder.changes.count, 2)
    XCTAssertEqual(recorder.changes.last?.keys, ["A", "B"])
    XCTAssertEqual(try parsedFile(directory + "/Preferences.plist").count, 0)
  }

  func testSetAndRemoveNotifyOncePerEffectiveChange() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    let token = recorder.observe(defaults)
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")
    scope.set(1, forKey: "A")  // equal: no change
    scope.set(false, forKey: "FirstTime")
    scope.removeObject(forKey: "Missing")  // nothing to remove
    _ = try scope.commit()
    XCTAssertEqual(
      recorder.changes,
      [
        PreferencesChange(directory: directory, keys: ["A"]),
        PreferencesChange(directory: directory, keys: ["FirstTime"]),
      ])
    let second = defaults.scope(directory)
    second.removeObject(forKey: "A")
    _ = try second.commit()
    XCTAssertEqual(recorder.changes.count, 3)
    defaults.removeObserver(token)
    let third = defaults.scope(directory)
    third.set(5, forKey: "A")
    _ = try third.commit()
    XCTAssertEqual(recorder.changes.count, 3, "a removed observer hears nothing")
  }

  func testEqualValueWritesNothingAndNotifiesNothing() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let first = defaults.scope(directory)
    first.set("x", forKey: "A")
    _ = try first.commit()
    XCTAssertEqual(defaults.writeCount, 1)
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let inode = try inodeOf(directory + "/Preferences.plist")
    let second = defaults.scope(directory)
    second.set("x", forKey: "A")
    XCTAssertFalse(second.hasChanges)
    _ = try second.commit()
    XCTAssertEqual(defaults.writeCount, 1)
    XCTAssertEqual(try inodeOf(directory + "/Preferences.plist"), inode)
    XCTAssertTrue(recorder.changes.isEmpty)
  }

  func testThreeSetsInOneRequestWriteOnce() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")
    scope.set(true, forKey: "B")
    scope.set("c", forKey: "C")
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/Preferences.plist"))
    _ = try scope.commit()
    XCTAssertEqual(defaults.writeCount, 1)
    _ = try scope.commit()  // nothing left
    XCTAssertEqual(defaults.writeCount, 1)
    let file = try parsedFile(directory + "/Preferences.plist")
    XCTAssertEqual(file["A"] as? Int, 1)
    XCTAssertEqual(file["B"] as? Bool, true)
    XCTAssertEqual(file["C"] as? String, "c")
  }

  func testResetIsOneChangeOneNotificationAndLeavesOtherKeys() throws {
    let directory = makeTemporaryDirectory()
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
    XCTAssertTrue(scope.bool(forKey: "OpenLastList"))
    XCTAssertFalse(scope.bool(forKey: "HideCheckedItems"))
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), -1)
    let cookies = try scope.commit()
    XCTAssertEqual(cookies, [.remove(key: "ChecklistIndex")])
    XCTAssertEqual(defaults.writeCount, writes + 1)
    XCTAssertEqual(
      recorder.changes,
      [
        PreferencesChange(
          directory: directory, keys: ["ChecklistIndex", "HideCheckedItems", "OpenLastList"])
      ])
    let file = try parsedFile(directory + "/Preferences.plist")
    XCTAssertEqual(file.count, 1)
    XCTAssertEqual(file["FirstTime"] as? Bool, false)

    let again = defaults.scope(directory)
    again.resetToRegisteredDefaults(forKeys: ["OpenLastList", "HideCheckedItems"])
    XCTAssertFalse(again.hasChanges, "resetting defaults that are already defaults changes nothing")
  }

  func testNonPropertyListValuesThrowATypedError() {
    let scope = makeDefaults().scope(makeTemporaryDirectory())
    struct Custom {}
    XCTAssertThrowsError(try scope.set(Custom(), forKey: "A")) { error in
      XCTAssertEqual(
        error as? PreferencesError, .notAPropertyListValue(key: "A", typeName: "Custom"))
    }
    XCTAssertThrowsError(try scope.set([1, Custom()] as [Any], forKey: "B"))
    XCTAssertThrowsError(try scope.set(["x": NSNull()], forKey: "C"))
    XCTAssertThrowsError(try scope.set([1: "one"] as [Int: String], forKey: "D"))
    XCTAssertThrowsError(try scope.set(UInt64.max, forKey: "E"))
    XCTAssertFalse(scope.hasChanges)
    XCTAssertThrowsError(try scope.set("abc" as Any, forKey: "ChecklistIndex")) { error in
      guard case .notACookieValue(let key, _)? = error as? PreferencesError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(key, "ChecklistIndex")
    }
  }

  func testSetNilRemoves() throws {
    let defaults = makeDefaults()
    let scope = defaults.scope(makeTemporaryDirectory())
    scope.set("x", forKey: "A")
    try scope.set(nil, forKey: "A")
    XCTAssertNil(scope.object(forKey: "A"))
    _ = try scope.commit()
    XCTAssertEqual(defaults.writeCount, 0, "set then removed: nothing to write")
  }

  func testControlCharactersAreStripped() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set("a\u{0}b\u{7}c\td\ne\rf\u{1B}g", forKey: "Text")
    try scope.set(["k\u{1}": ["x\u{2}y"]], forKey: "Nested")
    XCTAssertEqual(scope.string(forKey: "Text"), "abc\td\ne\rfg")
    _ = try scope.commit()
    let reread = makeDefaults().scope(directory)
    XCTAssertEqual(reread.string(forKey: "Text"), "abc\td\ne\rfg")
    XCTAssertEqual(reread.dictionary(forKey: "Nested")?["k"] as? [String], ["xy"])
  }

  func testNoDirectoryThrowsForPersistentChangesOnly() throws {
    let defaults = makeDefaults()
    let cookieOnly = defaults.scope(nil)
    cookieOnly.set(3, forKey: "ChecklistIndex")
    XCTAssertEqual(try cookieOnly.commit().map(\.value), ["3"])
    let scope = defaults.scope(nil)
    scope.set(false, forKey: "FirstTime")
    XCTAssertThrowsError(try scope.commit()) {
      XCTAssertEqual($0 as? PreferencesError, .noDirectory)
    }
    XCTAssertTrue(scope.hasChanges)
  }

  func testDirectoryIsCreatedPrivateOnFirstWriteOnly() throws {
    let base = makeTemporaryDirectory()
    let directory = base + "/ab/cd/visitor"
    let defaults = makeDefaults()
    let reader = defaults.scope(directory)
    XCTAssertTrue(reader.bool(forKey: "FirstTime"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/ab"))
    reader.set(false, forKey: "FirstTime")
    _ = try reader.commit()
    for path in [base + "/ab", base + "/ab/cd", directory] {
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      XCTAssertEqual(mode, 0o700, path)
    }
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: directory + "/Preferences.plist")[
        .posixPermissions] as? Int
    XCTAssertEqual(fileMode, 0o600)
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/.Preferences.lock"))
  }

  func testUnparsableFileIsKeptAsideAndNeverOverwritten() throws {
    let directory = makeTemporaryDirectory()
    let path = directory + "/Preferences.plist"
    let garbage = Data("<plist><dict><key>A</key><integer>1".utf8)
    try garbage.write(to: URL(fileURLWithPath: path))
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    XCTAssertTrue(scope.bool(forKey: "FirstTime"), "defaults apply")
    let problem = try XCTUnwrap(scope.loadProblem)
    XCTAssertTrue(problem.contains("Preferences.plist.corrupt-"), problem)
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("Preferences.plist.corrupt-") }
    XCTAssertEqual(kept.count, 1)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + kept[0])), garbage)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))

    scope.set(false, forKey: "FirstTime")
    _ = try scope.commit()
    XCTAssertEqual(try parsedFile(path)["FirstTime"] as? Bool, false)
    XCTAssertNil(defaults.scope(directory).loadProblem)
  }

  func testCorruptionFoundAtCommitIsKeptAsideToo() throws {
    let directory = makeTemporaryDirectory()
    let path = directory + "/Preferences.plist"
    let defaults = makeDefaults()
    let scope = defaults.scope(directory)
    scope.set(1, forKey: "A")  // loads: no file yet
    try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF]).write(
      to: URL(fileURLWithPath: path))
    _ = try scope.commit()
    XCTAssertNotNil(scope.loadProblem)
    XCTAssertEqual(try parsedFile(path)["A"] as? Int, 1)
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("Preferences.plist.corrupt-") }
    XCTAssertEqual(kept.count, 1)
  }

  func testFilesThatAreNotADomainCountAsUnreadable() throws {
    let bodies = [
      "", "not a plist", "<?xml version=\"1.0\"?><plist><array/></plist>",
      "<plist><dict><key>A</key></dict></plist>", "bplist00",
    ]
    for body in bodies {
      let directory = makeTemporaryDirectory()
      try Data(body.utf8).write(to: URL(fileURLWithPath: directory + "/Preferences.plist"))
      let scope = makeDefaults().scope(directory)
      XCTAssertNotNil(scope.loadProblem, "\(body)")
      XCTAssertEqual(scope.integer(forKey: "A"), 0)
    }
  }

  func testTruncatedBinaryFilesNeverCrashTheLoader() throws {
    let directory = makeTemporaryDirectory()
    let scope = makeDefaults(format: .binary).scope(directory)
    try scope.set(
      ["a": [1, 2.5, "x", Data([1]), Date(timeIntervalSince1970: 5)] as [Any]], forKey: "D")
    scope.set("text", forKey: "S")
    _ = try scope.commit()
    let path = directory + "/Preferences.plist"
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    for length in 0..<whole.count {
      let truncated = makeTemporaryDirectory()
      try whole.prefix(length).write(to: URL(fileURLWithPath: truncated + "/Preferences.plist"))
      var flipped = whole
      flipped[length] ^= 0xFF
      let other = makeTemporaryDirectory()
      try flipped.write(to: URL(fileURLWithPath: other + "/Preferences.plist"))
      for visitor in [truncated, other] {
        let reader = makeDefaults().scope(visitor)
        _ = reader.dictionaryRepresentation()  // must not crash, whatever it finds
        if reader.loadProblem == nil {
          XCTAssertTrue(FileManager.default.fileExists(atPath: visitor + "/Preferences.plist"))
        }
        try? FileManager.default.removeItem(atPath: visitor)
      }
    }
  }

  func testUnsignedIntegersAboveIntMaxDoNotMakeAFileUnreadable() throws {
    let directory = makeTemporaryDirectory()
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>Big</key><integer>18446744073709551615</integer></dict></plist>
      """
    try Data(xml.utf8).write(to: URL(fileURLWithPath: directory + "/Preferences.plist"))
    let scope = makeDefaults().scope(directory)
    XCTAssertNil(scope.loadProblem)
    XCTAssertEqual(scope.double(forKey: "Big"), Double(UInt64.max))
  }

  func testBinaryFormatIsWrittenAndRead() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults(format: .binary)
    let scope = defaults.scope(directory)
    try scope.set(
      ["a": [1, 2.5, "x", Data([1]), Date(timeIntervalSince1970: 5)] as [Any]], forKey: "D")
    _ = try scope.commit()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/Preferences.plist"))
    XCTAssertEqual(String(decoding: bytes.prefix(6), as: UTF8.self), "bplist")
    let list = makeDefaults().scope(directory).dictionary(forKey: "D")?["a"] as? [Any]
    XCTAssertEqual(list?.count, 5)
    XCTAssertEqual(list?[4] as? Date, Date(timeIntervalSince1970: 5))
  }

  func testAnotherProcessesWriteIsSeenThroughTheFileIdentity() throws {
    let directory = makeTemporaryDirectory()
    let mine = makeDefaults()
    let theirs = makeDefaults()  // a second process: its own cache
    let first = mine.scope(directory)
    first.set(1, forKey: "A")
    _ = try first.commit()
    XCTAssertEqual(theirs.scope(directory).integer(forKey: "A"), 1)
    let change = theirs.scope(directory)
    change.set(2, forKey: "A")
    _ = try change.commit()
    XCTAssertEqual(mine.scope(directory).integer(forKey: "A"), 2, "no stale cache")
  }

  func testStaleScopeChangesAreReappliedOntoTheFreshFile() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let tabOne = defaults.scope(directory)
    let tabTwo = defaults.scope(directory)
    tabOne.set(1, forKey: "A")
    tabTwo.set(2, forKey: "B")
    _ = try tabOne.commit()
    _ = try tabTwo.commit()
    XCTAssertEqual(tabTwo.integer(forKey: "A"), 1, "the commit refreshed the scope")
    let file = try parsedFile(directory + "/Preferences.plist")
    XCTAssertEqual(file["A"] as? Int, 1)
    XCTAssertEqual(file["B"] as? Int, 2)
  }

  func testCacheIsBoundedAndStillCorrect() throws {
    let base = makeTemporaryDirectory()
    let defaults = makeDefaults(cacheCapacity: 2)
    for index in 0..<5 {
      let scope = defaults.scope(base + "/v\(index)")
      scope.set(index, forKey: "N")
      _ = try scope.commit()
    }
    for index in 0..<5 {
      XCTAssertEqual(defaults.scope(base + "/v\(index)").integer(forKey: "N"), index)
    }
    var cache = LRUCache<String, Int>(capacity: 2)
    cache.setValue(1, forKey: "a")
    cache.setValue(2, forKey: "b")
    _ = cache.value(forKey: "a")
    cache.setValue(3, forKey: "c")
    XCTAssertEqual(cache.count, 2)
    XCTAssertNil(cache.value(forKey: "b"), "least recently used goes first")
    XCTAssertEqual(cache.value(forKey: "a"), 1)
  }

  private func inodeOf(_ path: String) throws -> Int {
    try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
  }
}
