import Foundation
import PropertyList
import TestSupport
import Testing

@testable import Preferences

/// USERDEFAULTS.md, "Typed getters' conversions", one test a row, each both
/// registered and set (then read back from disk by a new scope).
@Suite struct ConversionTests {
  let temporary = TemporaryDirectory("preferences")

  /// Runs `check` on a scope where `key` is registered as `value`, on one
  /// where it was set, and on one that read the set value back from the file.
  private func withValue(
    _ value: Any, file: StaticString = #filePath, line: UInt = #line,
    _ check: (VisitorDefaults) -> Void
  ) throws {
    let registered = makeDefaults()
    registered.register(defaults: ["key": value])
    check(registered.scope(nil))

    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let writer = defaults.scope(directory)
    try writer.set(value, forKey: "key")
    check(writer)
    _ = try writer.commit()
    check(makeDefaults().scope(directory))  // a new process: from the file
  }

  @Test func integerFromInteger() throws {
    try withValue(5) { #expect($0.integer(forKey: "key") == 5) }
  }

  @Test func integerFromString() throws {
    try withValue("1234") { #expect($0.integer(forKey: "key") == 1234) }
  }

  @Test func doubleFromString() throws {
    try withValue("12.34") { #expect($0.double(forKey: "key") == 12.34) }
  }

  @Test func boolFromYES() throws {
    try withValue("YES") { #expect($0.bool(forKey: "key")) }
  }

  @Test func trueAsNumberAndString() throws {
    try withValue(true) {
      #expect($0.integer(forKey: "key") == 1)
      #expect($0.double(forKey: "key") == 1)
      #expect($0.float(forKey: "key") == 1)
      #expect($0.string(forKey: "key") == "1")
    }
  }

  @Test func floatToIntegerAndDouble() throws {
    try withValue(Float(12.34)) {
      #expect($0.integer(forKey: "key") == 12)
      #expect($0.double(forKey: "key") == Double(Float(12.34)))
      #expect($0.float(forKey: "key") == Float(12.34))
    }
  }

  @Test func doubleToInteger() throws {
    try withValue(12.34) { #expect($0.integer(forKey: "key") == 12) }
  }

  @Test func integerToFloatDoubleString() throws {
    try withValue(42) {
      #expect($0.float(forKey: "key") == 42)
      #expect($0.double(forKey: "key") == 42)
      #expect($0.string(forKey: "key") == "42")
    }
  }

  @Test func doubleToString() throws {
    try withValue(12.34) { #expect($0.string(forKey: "key") == "12.34") }
  }

  @Test func integerOfStringScans() throws {
    try withValue("42abc") { #expect($0.integer(forKey: "key") == 42) }
    try withValue("abc") { #expect($0.integer(forKey: "key") == 0) }
    try withValue("  -17 apples") { #expect($0.integer(forKey: "key") == -17) }
  }

  @Test func boolOfStringRules() {
    let cases: [(String, Bool)] = [
      ("YES", true), ("yes", true), ("true", true), ("T", true), ("  y", true), ("1", true),
      ("007", true), ("-5", true), ("+0009", true), ("NO", false), ("false", false), ("0", false),
      ("000", false), ("", false), ("abc", false), ("-0", false), (" 0 1", false),
    ]
    for (text, expected) in cases {
      #expect(PropertyListValue.string(text).boolValue == expected, "bool of \"\(text)\"")
    }
  }

  @Test func stringRoundTrips() throws {
    try withValue("héllo, wörld <&>") {
      #expect($0.string(forKey: "key") == "héllo, wörld <&>")
    }
  }

  @Test func dataRoundTrips() throws {
    let bytes = Data([0, 1, 2, 0xFF, 0x80])
    try withValue(bytes) {
      #expect($0.data(forKey: "key") == bytes)
      #expect($0.string(forKey: "key") == nil)
    }
  }

  @Test func uRLRoundTripsAsAString() throws {
    let url = URL(string: "https://example.com/a/b?c=d#e")!
    try withValue(url) {
      #expect($0.url(forKey: "key") == url)
      #expect($0.string(forKey: "key") == url.absoluteString)
    }
    try withValue("/var/data") {
      #expect($0.url(forKey: "key") == URL(fileURLWithPath: "/var/data"))
    }
  }

  @Test func datesArraysAndDictionariesRoundTripNested() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let value: [String: Any] = [
      "when": date, "bytes": Data([9, 8]),
      "list": [1, "two", 3.5, true, date, ["inner": Data([7])]] as [Any],
      "empty": [String: Any](), "none": [Any](),
    ]
    try withValue(value) { scope in
      let read = scope.dictionary(forKey: "key")
      #expect(read?["when"] as? Date == date)
      #expect(read?["bytes"] as? Data == Data([9, 8]))
      let list = read?["list"] as? [Any]
      #expect(list?.count == 6)
      #expect(list?[0] as? Int == 1)
      #expect(list?[1] as? String == "two")
      #expect(list?[2] as? Double == 3.5)
      #expect(list?[3] as? Bool == true)
      #expect(list?[4] as? Date == date)
      #expect((list?[5] as? [String: Any])?["inner"] as? Data == Data([7]))
      #expect((read?["empty"] as? [String: Any])?.count == 0)
      #expect((read?["none"] as? [Any])?.count == 0)
      #expect(scope.array(forKey: "key") == nil)
    }
    try withValue([1, [2, [3]]] as [Any]) { scope in
      let outer = scope.array(forKey: "key")
      #expect(outer?.first as? Int == 1)
      #expect(((outer?[1] as? [Any])?[1] as? [Any])?.first as? Int == 3)
    }
  }

  @Test func datesAreKeptInWholeSeconds() throws {
    try withValue(Date(timeIntervalSince1970: 1_700_000_000.75)) {
      #expect($0.date(forKey: "key") == Date(timeIntervalSince1970: 1_700_000_000))
    }
  }

  @Test func everyIntegerTypeIsAccepted() throws {
    let values: [Any] = [
      Int8(-8), Int16(16), Int32(-32), Int64(64), UInt8(8), UInt16(16), UInt32(32), UInt64(64),
      UInt(7), Int.max, Int.min,
    ]
    for value in values {
      try withValue(value) { #expect($0.integer(forKey: "key") == Int("\(value)")) }
    }
  }
}
