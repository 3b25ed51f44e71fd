import ChecklistsModel
import Foundation
import XCTest

@testable import Storage

final class DataCheckTests: XCTestCase {
  func testReportsAndRepairsUnreadableFiles() throws {
    let data = try makeDataDirectory(self)
    let store = makeStore(data)
    let good = VisitorDirectory(dataDirectory: data, visitorID: "good")
    let bad = VisitorDirectory(dataDirectory: data, visitorID: "bad")
    let badPreferences = VisitorDirectory(dataDirectory: data, visitorID: "prefs")
    for visitor in [good, bad, badPreferences] {
      try store.update(visitor, initial: storedOrFirstRun) { _ in }
    }
    let preferences = try PropertyListSerialization.data(
      fromPropertyList: ["OpenLastList": false], format: .xml, options: 0)
    try preferences.write(to: URL(fileURLWithPath: good.preferencesPath))
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: bad.checklistsPath))
    let array = try PropertyListSerialization.data(
      fromPropertyList: [1, 2], format: .xml, options: 0)
    try array.write(to: URL(fileURLWithPath: badPreferences.preferencesPath))

    let report = DataCheck.run(dataDirectory: data, repair: false)
    XCTAssertEqual(report.visitors, 3)
    XCTAssertEqual(report.filesChecked, 5)
    XCTAssertEqual(
      Set(report.problems.map(\.path)), [bad.checklistsPath, badPreferences.preferencesPath])
    XCTAssertFalse(report.isClean)
    XCTAssertTrue(FileManager.default.fileExists(atPath: bad.checklistsPath), "no repair, no move")

    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    XCTAssertEqual(repaired.problems.count, 2)
    XCTAssertTrue(repaired.problems.allSatisfy { $0.keptAs?.contains(".corrupt-") == true })
    XCTAssertFalse(FileManager.default.fileExists(atPath: bad.checklistsPath))

    let after = DataCheck.run(dataDirectory: data, repair: false)
    XCTAssertTrue(after.isClean, "\(after.problems)")
    XCTAssertEqual(after.visitors, 3)
  }

  func testStrayDirectoriesAreReportedAndEmptyDataIsClean() throws {
    let data = try makeDataDirectory(self)
    XCTAssertTrue(DataCheck.run(dataDirectory: data, repair: false).isClean)
    try FileManager.default.createDirectory(
      atPath: data + "/users/ab/not-a-key", withIntermediateDirectories: true)
    let report = DataCheck.run(dataDirectory: data, repair: true)
    XCTAssertEqual(report.problems.map(\.path), [data + "/users/ab/not-a-key"])
  }

  /// `--repair` must set `Preferences.plist` aside under the lock the
  /// Preferences module takes to replace it (`.Preferences.lock`): while a
  /// writer holds it, the repair waits, and a good version the writer puts
  /// in place meanwhile is kept, not moved aside as the corrupt one was.
  func testRepairWaitsForThePreferencesLockAndKeepsWhatItsHolderWrote() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: "held")
    try FileManager.default.createDirectory(
      atPath: visitor.path, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: visitor.preferencesPath))
    let good = try PropertyListSerialization.data(
      fromPropertyList: ["OpenLastList": false], format: .xml, options: 0)

    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let writer = DispatchQueue(label: "preferences writer")
    writer.async {
      try? FileLock.withLock(visitor.preferencesLockPath) {
        held.signal()
        release.wait()
        // What the Preferences module does under this lock: replace the file.
        try AtomicFile.write(good, to: visitor.preferencesPath, durable: false)
      }
    }
    held.wait()

    let report = LockedValue<DataCheck.Report?>(nil)
    let repaired = expectation(description: "repair finished")
    DispatchQueue.global().async {
      let result = DataCheck.run(dataDirectory: data, repair: true)
      report.withLock { $0 = result }
      repaired.fulfill()
    }
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertNil(report.withLock { $0 }, "the repair did not wait for the preferences lock")
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: visitor.preferencesPath)), Data("garbage".utf8),
      "Preferences.plist was moved while its lock was held")

    release.signal()
    wait(for: [repaired], timeout: 10)
    let result = try XCTUnwrap(report.withLock { $0 })
    XCTAssertEqual(result.problems, [], "the version written under the lock is readable")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: visitor.preferencesPath)), good)
    let names = try FileManager.default.contentsOfDirectory(atPath: visitor.path)
    XCTAssertFalse(names.contains { $0.contains(".corrupt-") }, "\(names)")
  }
}
