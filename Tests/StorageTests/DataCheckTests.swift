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
}
