import Foundation
import XCTest

@testable import Preferences

final class CookieDomainTests: XCTestCase {
  func testTamperedValuesAreAbsentSoTheRegisteredDefaultApplies() {
    let defaults = makeDefaults()
    let absent = [
      "abc", "1e3", "99999999999999999999", "", "+3", " 3", "3 ", "0x10", "3.0", "-", "--1",
      "1_000",
      "\u{663}",  // Arabic-Indic digit three
    ]
    for value in absent {
      let scope = defaults.scope(nil, cookie: "ChecklistIndex=\"\(value)\"")
      XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), -1, "cookie \"\(value)\"")
    }
    let cases: [(String, Int)] = [
      ("-5", -5), ("0", 0), ("3", 3), ("007", 7), ("9223372036854775807", .max),
      ("-9223372036854775808", .min),
    ]
    for (value, expected) in cases {
      XCTAssertEqual(
        defaults.scope(nil, cookie: "ChecklistIndex=\(value)").integer(forKey: "ChecklistIndex"),
        expected)
    }
  }

  func testSetEmitsLongLivedCookieSecureOnlyOnHTTPS() throws {
    let defaults = makeDefaults()
    let plain = defaults.scope(nil)
    plain.set(3, forKey: "ChecklistIndex")
    let cookies = try plain.commit()
    XCTAssertEqual(
      cookies.map(\.headerValue),
      ["ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"])
    let secure = defaults.scope(nil, https: true)
    secure.set(4, forKey: "ChecklistIndex")
    XCTAssertEqual(
      try secure.commit().map(\.headerValue),
      ["__Host-ChecklistIndex=4; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure"])
    XCTAssertEqual(SetCookie.longLived(name: "X", value: "1", secure: true).maxAge, 400 * 86_400)
  }

  func testEqualValueSendsNoCookieAndLastSetWins() throws {
    let defaults = makeDefaults()
    let same = defaults.scope(nil, cookie: "ChecklistIndex=2")
    same.set(2, forKey: "ChecklistIndex")
    XCTAssertFalse(same.hasChanges)
    XCTAssertEqual(try same.commit(), [])
    let twice = defaults.scope(nil, cookie: "ChecklistIndex=2")
    twice.set(5, forKey: "ChecklistIndex")
    twice.set(6, forKey: "ChecklistIndex")
    XCTAssertEqual(try twice.commit().map(\.value), ["6"])
  }

  func testRemovingACookieBackedKeyDeletesTheCookie() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookie: "__Host-ChecklistIndex=2", https: true)
    scope.removeObject(forKey: "ChecklistIndex")
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), -1)
    let cookies = try scope.commit()
    XCTAssertEqual(cookies, [.deletion(name: "ChecklistIndex", secure: true)])
    XCTAssertEqual(
      cookies.first?.headerValue,
      "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure")
    XCTAssertEqual(recorder.changes, [PreferencesChange(directory: nil, keys: ["ChecklistIndex"])])
    let none = defaults.scope(nil)
    none.removeObject(forKey: "ChecklistIndex")
    XCTAssertEqual(try none.commit(), [], "no cookie, nothing to delete")
  }

  func testCookieBackedKeyAcceptsIntegerLikeValuesOnly() throws {
    let scope = makeDefaults().scope(nil)
    try scope.set("12" as Any, forKey: "ChecklistIndex")
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), 12)
    try scope.set(3.0 as Any, forKey: "ChecklistIndex")
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), 3)
    XCTAssertThrowsError(try scope.set(3.5 as Any, forKey: "ChecklistIndex"))
    scope.set("x", forKey: "ChecklistIndex")  // non-throwing overload: logged, ignored
    XCTAssertEqual(scope.integer(forKey: "ChecklistIndex"), 3)
  }

  func testRequestCookiesParsing() {
    let cookies = RequestCookies(
      header:
        " a=1;b = 2 ;  c=\"quoted value\"; a=second; noequals; =novalue; d=; e=x=y;\tf=\"\";g=\"")
    XCTAssertEqual(cookies["a"], "1", "first occurrence wins")
    XCTAssertEqual(cookies["b"], "2")
    XCTAssertEqual(cookies["c"], "quoted value")
    XCTAssertEqual(cookies["d"], "")
    XCTAssertEqual(cookies["e"], "x=y")
    XCTAssertEqual(cookies["f"], "")
    XCTAssertEqual(cookies["g"], "\"")
    XCTAssertNil(cookies["noequals"])
    XCTAssertNil(cookies[""])
    XCTAssertNil(RequestCookies(header: nil)["a"])
    XCTAssertNil(RequestCookies(header: "")["a"])
    XCTAssertNil(RequestCookies(header: ";;; ;")["a"])
    let odd = RequestCookies(header: "\u{0}=\u{1}; ä=ö; x=\u{FFFD}")
    XCTAssertEqual(odd["ä"], "ö")
    XCTAssertEqual(odd["x"], "\u{FFFD}")
  }

  /// Under HTTPS a cookie-backed value lives in its `__Host-` cookie; the
  /// plain cookie a browser kept from before is still read, and dropped
  /// when the value is next set, removed or renewed.
  func testHTTPSReadsTheLegacyPlainCookieAndReplacesIt() throws {
    let defaults = makeDefaults()
    let legacy = defaults.scope(nil, cookie: "ChecklistIndex=2", https: true)
    XCTAssertEqual(legacy.integer(forKey: "ChecklistIndex"), 2)
    legacy.removeObject(forKey: "ChecklistIndex")
    XCTAssertEqual(
      try legacy.commit().map(\.headerValue),
      [
        "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
        "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
      ])
    let both = defaults.scope(nil, cookie: "ChecklistIndex=2; __Host-ChecklistIndex=5", https: true)
    XCTAssertEqual(both.integer(forKey: "ChecklistIndex"), 5, "the prefixed cookie wins")
    let plainHTTP = defaults.scope(nil, cookie: "__Host-ChecklistIndex=5")
    XCTAssertEqual(plainHTTP.integer(forKey: "ChecklistIndex"), -1, "no __Host- cookie over HTTP")
  }

  /// Renewing re-sends each well-formed cookie-backed value as it is
  /// (browsers count 400 days from the last time a cookie was set); a value
  /// set in the same request wins; a tampered one is not renewed.
  func testRenewingResendsTheCarriedValues() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookie: "ChecklistIndex=3")
    scope.renewCookies()
    XCTAssertEqual(
      try scope.commit().map(\.headerValue),
      ["ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"])
    XCTAssertEqual(recorder.changes, [], "a renewal is not a change")
    let moved = defaults.scope(nil, cookie: "ChecklistIndex=3")
    moved.renewCookies()
    moved.set(7, forKey: "ChecklistIndex")
    XCTAssertEqual(try moved.commit().map(\.value), ["7"])
    let tampered = defaults.scope(nil, cookie: "ChecklistIndex=3x")
    tampered.renewCookies()
    XCTAssertEqual(try tampered.commit(), [])
    let secure = defaults.scope(nil, cookie: "ChecklistIndex=3", https: true)
    secure.renewCookies()
    XCTAssertEqual(
      try secure.commit().map(\.name), ["__Host-ChecklistIndex", "ChecklistIndex"],
      "the legacy plain cookie is replaced by the prefixed one")
  }
}
