import Foundation
import Testing

@testable import Preferences

@Suite struct CookieDomainTests {
  @Test func tamperedValuesAreAbsentSoTheRegisteredDefaultApplies() {
    let defaults = makeDefaults()
    let absent = [
      "abc", "1e3", "99999999999999999999", "", "+3", " 3", "3 ", "0x10", "3.0", "-", "--1",
      "1_000",
      "\u{663}",  // Arabic-Indic digit three
    ]
    for value in absent {
      let scope = defaults.scope(nil, cookie: "ChecklistIndex=\"\(value)\"")
      #expect(scope.integer(forKey: "ChecklistIndex") == -1, "cookie \"\(value)\"")
    }
    let cases: [(String, Int)] = [
      ("-5", -5), ("0", 0), ("3", 3), ("007", 7), ("9223372036854775807", .max),
      ("-9223372036854775808", .min),
    ]
    for (value, expected) in cases {
      #expect(
        defaults.scope(nil, cookie: "ChecklistIndex=\(value)").integer(forKey: "ChecklistIndex")
          == expected)
    }
  }

  @Test func setEmitsLongLivedCookieSecureOnlyOnHTTPS() throws {
    let defaults = makeDefaults()
    let plain = defaults.scope(nil)
    plain.set(3, forKey: "ChecklistIndex")
    let cookies = try plain.commit()
    #expect(
      cookies.map(\.headerValue) == [
        "ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"
      ])
    let secure = defaults.scope(nil, https: true)
    secure.set(4, forKey: "ChecklistIndex")
    #expect(
      try secure.commit().map(\.headerValue) == [
        "__Host-ChecklistIndex=4; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure"
      ])
    #expect(SetCookie.longLived(name: "X", value: "1", secure: true).maxAge == 400 * 86_400)
  }

  @Test func equalValueSendsNoCookieAndLastSetWins() throws {
    let defaults = makeDefaults()
    let same = defaults.scope(nil, cookie: "ChecklistIndex=2")
    same.set(2, forKey: "ChecklistIndex")
    #expect(!same.hasChanges)
    #expect(try same.commit() == [])
    let twice = defaults.scope(nil, cookie: "ChecklistIndex=2")
    twice.set(5, forKey: "ChecklistIndex")
    twice.set(6, forKey: "ChecklistIndex")
    #expect(try twice.commit().map(\.value) == ["6"])
  }

  @Test func removingACookieBackedKeyDeletesTheCookie() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookie: "__Host-ChecklistIndex=2", https: true)
    scope.removeObject(forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == -1)
    let cookies = try scope.commit()
    #expect(cookies == [.deletion(name: "ChecklistIndex", secure: true)])
    #expect(
      cookies.first?.headerValue
        == "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure")
    #expect(recorder.changes == [PreferencesChange(directory: nil, keys: ["ChecklistIndex"])])
    let none = defaults.scope(nil)
    none.removeObject(forKey: "ChecklistIndex")
    #expect(try none.commit() == [], "no cookie, nothing to delete")
  }

  @Test func cookieBackedKeyAcceptsIntegerLikeValuesOnly() throws {
    let scope = makeDefaults().scope(nil)
    try scope.set("12" as Any, forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == 12)
    try scope.set(3.0 as Any, forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == 3)
    #expect(throws: (any Error).self) { try scope.set(3.5 as Any, forKey: "ChecklistIndex") }
    scope.set("x", forKey: "ChecklistIndex")  // non-throwing overload: logged, ignored
    #expect(scope.integer(forKey: "ChecklistIndex") == 3)
  }

  @Test func requestCookiesParsing() {
    let cookies = RequestCookies(
      header:
        " a=1;b = 2 ;  c=\"quoted value\"; a=second; noequals; =novalue; d=; e=x=y;\tf=\"\";g=\"")
    #expect(cookies["a"] == "1", "first occurrence wins")
    #expect(cookies["b"] == "2")
    #expect(cookies["c"] == "quoted value")
    #expect(cookies["d"] == "")
    #expect(cookies["e"] == "x=y")
    #expect(cookies["f"] == "")
    #expect(cookies["g"] == "\"")
    #expect(cookies["noequals"] == nil)
    #expect(cookies[""] == nil)
    #expect(RequestCookies(header: nil)["a"] == nil)
    #expect(RequestCookies(header: "")["a"] == nil)
    #expect(RequestCookies(header: ";;; ;")["a"] == nil)
    let odd = RequestCookies(header: "\u{0}=\u{1}; ä=ö; x=\u{FFFD}")
    #expect(odd["ä"] == "ö")
    #expect(odd["x"] == "\u{FFFD}")
  }

  /// Under HTTPS a cookie-backed value lives in its `__Host-` cookie; the
  /// plain cookie a browser kept from before is still read, and dropped
  /// when the value is next set, removed or renewed.
  @Test func hTTPSReadsTheLegacyPlainCookieAndReplacesIt() throws {
    let defaults = makeDefaults()
    let legacy = defaults.scope(nil, cookie: "ChecklistIndex=2", https: true)
    #expect(legacy.integer(forKey: "ChecklistIndex") == 2)
    legacy.removeObject(forKey: "ChecklistIndex")
    #expect(
      try legacy.commit().map(\.headerValue) == [
        "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
        "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
      ])
    let both = defaults.scope(nil, cookie: "ChecklistIndex=2; __Host-ChecklistIndex=5", https: true)
    #expect(both.integer(forKey: "ChecklistIndex") == 5, "the prefixed cookie wins")
    let plainHTTP = defaults.scope(nil, cookie: "__Host-ChecklistIndex=5")
    #expect(plainHTTP.integer(forKey: "ChecklistIndex") == -1, "no __Host- cookie over HTTP")
  }

  /// Renewing re-sends each well-formed cookie-backed value as it is
  /// (browsers count 400 days from the last time a cookie was set); a value
  /// set in the same request wins; a tampered one is not renewed.
  @Test func renewingResendsTheCarriedValues() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookie: "ChecklistIndex=3")
    scope.renewCookies()
    #expect(
      try scope.commit().map(\.headerValue) == [
        "ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"
      ])
    #expect(recorder.changes == [], "a renewal is not a change")
    let moved = defaults.scope(nil, cookie: "ChecklistIndex=3")
    moved.renewCookies()
    moved.set(7, forKey: "ChecklistIndex")
    #expect(try moved.commit().map(\.value) == ["7"])
    let tampered = defaults.scope(nil, cookie: "ChecklistIndex=3x")
    tampered.renewCookies()
    #expect(try tampered.commit() == [])
    let secure = defaults.scope(nil, cookie: "ChecklistIndex=3", https: true)
    secure.renewCookies()
    #expect(
      try secure.commit().map(\.name) == ["__Host-ChecklistIndex", "ChecklistIndex"],
      "the legacy plain cookie is replaced by the prefixed one")
  }
}
