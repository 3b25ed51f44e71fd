import Foundation
import XCTest

@testable import Preferences

/// USERDEFAULTS.md, "Typed getters' conversions", one test a row, each both
/// registered and set (then read back from disk by a new scope).
final class ConversionTests: XCTestCase {
  /// Runs `check` on a scope where `key` is registered as `value`, on one
  /// where it was set, and on one that read the set value back from the file.
  private func withValue(
    _ value: Any, file: StaticString = #filePath, line: UInt = #line,
    _ check: (VisitorDefaults) -> Void
  ) throws {
    let registered = makeDefaults()
    registered.register(defaults: ["key": value])
    check(registered.scope(nil))

    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let writer = defaults.scope(directory)
    try writer.set(value, forKey: "key")
    check(writer)
    _ = try writer.commit()
    check(makeDefaults().scope(directory))  // a new process: from the file
  }

  func testIntegerFromInteger() throws {
    try withValue(5) { XCTAssertEqual($0.integer(forKey: "key"), 5) }
  }

  func testIntegerFromString() throws {
    try withValue("1234") { XCTAssertEqual($0.integer(forKey: "key"), 1234) }
  }

  func testDoubleFromString() throws {
    try withValue("12.34") { XCTAssertEqual($0.double(forKey: "key"), 12.34) }
  }

  func testBoolFromYES() throws {
    try withValue("YES") { XCTAssertTrue($0.bool(forKey: "key")) }
  }

  func testTrueAsNumberAndString() throws {
    try withValue(true) {
      XCTAssertEqual($0.integer(forKey: "key"), 1)
      XCTAssertEqual($0.double(forKey: "key"), 1)
      XCTAssertEqual($0.float(forKey: "key"), 1)
      XCTAssertEqual($0.string(forKey: "key"), "1")
    }
  }

  func testFloatToIntegerAndDouble() throws {
    try withValue(Float(12.34)) {
      XCTAssertEqual($0.integer(forKey: "key"), 12)
      XCTAssertEqual($0.double(forKey: "key"), Double(Float(12.34)))
      XCTAssertEqual($0.float(forKey: "key"), Float(12.34))
    }
  }

  func testDoubleToInteger() throws {
    try withValue(12.34) { XCTAssertEqual($0.integer(forKey: "key"), 12) }
  }

  func testIntegerToFloatDoubleString() throws {
    try withValue(42) {
      XCTAssertEqual($0.float(forKey: "key"), 42)
      XCTAssertEqual($0.double(forKey: "key"), 42)
      XCTAssertEqual($0.string(forKey: "key"), "42")
    }
  }

  func testDoubleToString() throws {
    try withValue(12.34) { XCTAssertEqual($0.string(forKey: "key"), "12.34") }
  }

  func testIntegerOfStringScans() throws {
    try withValue("42abc") { XCTAssertEqual($0.integer(forKey: "key"), 42) }
    try withValue("abc") { XCTAssertEqual($0.integer(forKey: "key"), 0) }
    try withValue("  -17 apples") { XCTAssertEqual($0.integer(forKey: "key"), -17) }
  }

  func testBoolOfStringRules() {
    let cases: [(String, Bool)] = [
      ("YES", true), ("yes", true), ("true", true), ("T", true), ("  y", true), ("1", true),
      ("007", true), ("-5", true), ("+0009", true), ("NO", false), ("false", false), ("0", false),
      ("000", false), ("", false), ("abc", false), ("-0", false), (" 0 1", false),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(PlistValue.string(text).boolValue, expected, "bool of \"\(text)\"")
    }
  }

  func testStringRoundTrips() throws {
    try withValue("héllo, wörld <&>") {
      XCTAssertEqual($0.string(forKey: "key"), "héllo, wörld <&>")
    }
  }

  func testDataRoundTrips() throws {
    let bytes = Data([0, 1, 2, 0xFF, 0x80])
    try withValue(bytes) {
      XCTAssertEqual($0.data(forKey: "key"), bytes)
      XCTAssertNil($0.string(forKey: "key"))
    }
  }

  func testURLRoundTripsAsAString() throws {
    let url = URL(string: "https://example.com/a/b?c=d#e")!
    try withValue(url) {
      XCTAssertEqual($0.url(forKey: "key"), url)
      XCTAssertEqual($0.string(forKey: "key"), url.absoluteString)
    }
    try withValue("/var/data") {
      XCTAssertEqual($0.url(forKey: "key"), URL(fileURLWithPath: "/var/data"))
    }
  }

  func testDatesArraysAndDictionariesRoundTripNested() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let value: [String: Any] = [
      "when": date, "bytes": Data([9, 8]),
      "list": [1, "two", 3.5, true, date, ["inner": Data([7])]] as [Any],
      "empty": [String: Any](), "none": [Any](),
    ]
    try withValue(value) { scope in
      let read = scope.dictionary(forKey: "key")
      XCTAssertEqual(read?["when"] as? Date, date)
      XCTAssertEqual(read?["bytes"] as? Data, Data([9, 8]))
      let list = read?["list"] as? [Any]
      XCTAssertEqual(list?.count, 6)
      XCTAssertEqual(list?[0] as? Int, 1)
      XCTAssertEqual(list?[1] as? String, "two")
      XCTAssertEqual(list?[2] as? Double, 3.5)
      XCTAssertEqual(list?[3] as? Bool, true)
      XCTAssertEqual(list?[4] as? Date, date)
      XCTAssertEqual((list?[5] as? [String: Any])?["inner"] as? Data, Data([7]))
      XCTAssertEqual((read?["empty"] as? [String: Any])?.count, 0)
      XCTAssertEqual((read?["none"] as? [Any])?.count, 0)
      XCTAssertNil(scope.array(forKey: "key"))
    }
    try withValue([1, [2, [3]]] as [Any]) { scope in
      let outer = scope.array(forKey: "key")
      XCTAssertEqual(outer?.first as? Int, 1)
      XCTAssertEqual(((outer?[1] as? [Any])?[1] as? [Any])?.first as? Int, 3)
    }
  }

  func testDatesAreKeptInWholeSeconds() throws {
    try withValue(Date(timeIntervalSince1970: 1_700_000_000.75)) {
      XCTAssertEqual($0.date(forKey: "key"), Date(timeIntervalSince1970: 1_700_000_000))
    }
  }

  func testEveryIntegerTypeIsAccepted() throws {
    let values: [Any] = [
      Int8(-8), Int16(16), Int32(-32), Int64(64), UInt8(8), UInt16(16), UInt32(32), UInt64(64),
      UInt(7), Int.max, Int.min,
    ]
    for value in values {
      try withValue(value) { XCTAssertEqual($0.integer(forKey: "key"), Int("\(value)")) }
    }
  }
}
