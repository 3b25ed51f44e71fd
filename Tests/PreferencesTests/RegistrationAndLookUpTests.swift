import Foundation
import XCTest

@testable import Preferences

/// USERDEFAULTS.md, "Look-up and registration".
final class RegistrationAndLookUpTests: XCTestCase {
  func testRegisterMergesAndLaterValuesWin() {
    let defaults = makeDefaults()
    defaults.register(defaults: ["A": 1, "B": "one"])
    defaults.register(defaults: ["A": 2])
    let scope = defaults.scope(nil)
    XCTAssertEqual(scope.integer(forKey: "A"), 2)
    XCTAssertEqual(scope.string(forKey: "B"), "one")
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), -1)
    XCTAssertTrue(scope.bool(forKey: "FirstTime"))
  }

  func testRegistrationIsNeverWritten() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    defaults.register(defaults: ["A": 1])
    let scope = defaults.scope(directory)
    XCTAssertEqual(scope.integer(forKey: "A"), 1)
    XCTAssertFalse(scope.hasChanges)
    XCTAssertEqual(try scope.commit(), [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/Preferences.plist"))
    XCTAssertEqual(defaults.writeCount, 0)
  }

  func testMissingKeyGivesUserDefaultsAbsentValues() {
    let scope = makeDefaults().scope(makeTemporaryDirectory())
    XCTAssertEqual(scope.integer(forKey: "missing"), 0)
    XCTAssertFalse(scope.bool(forKey: "missing"))
    XCTAssertEqual(scope.double(forKey: "missing"), 0)
    XCTAssertEqual(scope.float(forKey: "missing"), 0)
    XCTAssertNil(scope.string(forKey: "missing"))
    XCTAssertNil(scope.data(forKey: "missing"))
    XCTAssertNil(scope.url(forKey: "missing"))
    XCTAssertNil(scope.object(forKey: "missing"))
    XCTAssertNil(scope.date(forKey: "missing"))
    XCTAssertNil(scope.array(forKey: "missing"))
    XCTAssertNil(scope.dictionary(forKey: "missing"))
  }

  func testOrderIsCookieThenPersistentThenRegistration() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    defaults.register(defaults: ["Shown": "registered"])
    let writer = defaults.scope(directory)
    writer.set("persistent", forKey: "Shown")
    writer.set(7, forKey: "ChecklistIndex")  // cookie-backed: not persistent
    _ = try writer.commit()
    XCTAssertNil(try parsedFile(directory + "/Preferences.plist")["ChecklistIndex"])

    let reader = defaults.scope(directory, cookies: ["ChecklistIndex": "3"])
    XCTAssertEqual(reader.string(forKey: "Shown"), "persistent")
    XCTAssertEqual(reader.integer(forKey: "ChecklistIndex"), 3)
    XCTAssertEqual(defaults.scope(directory).integer(forKey: "ChecklistIndex"), -1)
    let all = reader.dictionaryRepresentation()
    XCTAssertEqual(all["Shown"] as? String, "persistent")
    XCTAssertEqual(all["ChecklistIndex"] as? Int, 3)
    XCTAssertEqual(all["FirstTime"] as? Bool, true)
  }

  func testReadAfterSetInTheSameScopeSeesTheNewValue() {
    let scope = makeDefaults().scope(makeTemporaryDirectory())
    scope.set(false, forKey: "FirstTime")
    scope.set(4, forKey: "ChecklistIndex")
    XCTAssertFalse(scope.bool(forKey: "FirstTime"))
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), 4)
    scope.removeObject(forKey: "FirstTime")
    XCTAssertTrue(scope.bool(forKey: "FirstTime"))
  }

  func testVisitorDefaultsServesTheModelLayersProtocol() {
    let preferences: any ChecklistPreferences = makeDefaults().scope(makeTemporaryDirectory())
    preferences.set(2, forKey: "ChecklistIndex")
    preferences.set(false, forKey: "FirstTime")
    XCTAssertEqual(preferences.integer(forKey: "ChecklistIndex"), 2)
    XCTAssertFalse(preferences.bool(forKey: "FirstTime"))
  }
}
