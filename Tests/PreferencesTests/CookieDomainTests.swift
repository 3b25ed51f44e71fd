import Foundation
import Testing

@testable import Preferences

/// The cookie domain: a cookie-backed key reads the value the request's
/// cookie carried (the web layer finds it), and every change to it comes
/// back from `commit()` as a `CookieChange` for the web layer to send.
@Suite struct CookieDomainTests {
  @Test func tamperedValuesAreAbsentSoTheRegisteredDefaultApplies() {
    let defaults = makeDefaults()
    let absent = [
      "abc", "1e3", "99999999999999999999", "", "+3", " 3", "3 ", "0x10", "3.0", "-", "--1",
      "1_000",
      "\u{663}",  // Arabic-Indic digit three
    ]
    for value in absent {
      let scope = defaults.scope(nil, cookies: ["ChecklistIndex": value])
      #expect(scope.integer(forKey: "ChecklistIndex") == -1, "cookie \"\(value)\"")
    }
    let cases: [(String, Int)] = [
      ("-5", -5), ("0", 0), ("3", 3), ("007", 7), ("9223372036854775807", .max),
      ("-9223372036854775808", .min),
    ]
    for (value, expected) in cases {
      let scope = defaults.scope(nil, cookies: ["ChecklistIndex": value])
      #expect(scope.integer(forKey: "ChecklistIndex") == expected, "cookie \"\(value)\"")
    }
  }

  @Test func setReturnsTheNewValue() throws {
    let scope = makeDefaults().scope(nil)
    scope.set(3, forKey: "ChecklistIndex")
    #expect(scope.hasChanges)
    #expect(try scope.commit() == [.set(key: "ChecklistIndex", value: "3")])
    #expect(try scope.commit() == [], "a commit hands each change over once")
  }

  @Test func equalValueSendsNoCookieAndLastSetWins() throws {
    let defaults = makeDefaults()
    let same = defaults.scope(nil, cookies: ["ChecklistIndex": "2"])
    same.set(2, forKey: "ChecklistIndex")
    #expect(!same.hasChanges)
    #expect(try same.commit() == [])
    let twice = defaults.scope(nil, cookies: ["ChecklistIndex": "2"])
    twice.set(5, forKey: "ChecklistIndex")
    twice.set(6, forKey: "ChecklistIndex")
    #expect(try twice.commit().map(\.value) == ["6"])
  }

  @Test func removingACookieBackedKeyDeletesTheCookie() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookies: ["ChecklistIndex": "2"])
    scope.removeObject(forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == -1)
    #expect(try scope.commit() == [.remove(key: "ChecklistIndex")])
    #expect(recorder.changes == [PreferencesChange(directory: nil, keys: ["ChecklistIndex"])])
    let none = defaults.scope(nil)
    none.removeObject(forKey: "ChecklistIndex")
    #expect(try none.commit() == [], "no cookie, nothing to delete")
    let tampered = defaults.scope(nil, cookies: ["ChecklistIndex": "x"])
    tampered.removeObject(forKey: "ChecklistIndex")
    #expect(
      try tampered.commit() == [.remove(key: "ChecklistIndex")],
      "a tampered cookie reads as absent but is deleted all the same")
  }

  /// A removal replaces every earlier change of its key; a set after a
  /// removal comes after it (the web layer needs both: the removal may drop
  /// a cookie the set does not replace).
  @Test func changesOfOneKeyReplaceEachOtherInOrder() throws {
    let defaults = makeDefaults()
    let setThenRemove = defaults.scope(nil)
    setThenRemove.set(4, forKey: "ChecklistIndex")
    setThenRemove.removeObject(forKey: "ChecklistIndex")
    #expect(try setThenRemove.commit() == [.remove(key: "ChecklistIndex")])
    let removeThenSet = defaults.scope(nil, cookies: ["ChecklistIndex": "2"])
    removeThenSet.removeObject(forKey: "ChecklistIndex")
    removeThenSet.set(4, forKey: "ChecklistIndex")
    removeThenSet.set(5, forKey: "ChecklistIndex")
    #expect(
      try removeThenSet.commit() == [
        .remove(key: "ChecklistIndex"), .set(key: "ChecklistIndex", value: "5"),
      ])
    let removedTwice = defaults.scope(nil, cookies: ["ChecklistIndex": "2"])
    removedTwice.removeObject(forKey: "ChecklistIndex")
    removedTwice.removeObject(forKey: "ChecklistIndex")
    #expect(try removedTwice.commit() == [.remove(key: "ChecklistIndex")])
  }

  @Test func cookieBackedKeyAcceptsIntegerLikeValuesOnly() throws {
    let scope = makeDefaults().scope(nil)
    try scope.set("12" as Any, forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == 12)
    try scope.set(3.0 as Any, forKey: "ChecklistIndex")
    #expect(scope.integer(forKey: "ChecklistIndex") == 3)
    #expect(throws: PreferencesError.self) { try scope.set(3.5 as Any, forKey: "ChecklistIndex") }
    scope.set("x", forKey: "ChecklistIndex")  // non-throwing overload: logged, ignored
    #expect(scope.integer(forKey: "ChecklistIndex") == 3)
  }

  /// Renewing re-sends each well-formed cookie-backed value as it is
  /// (browsers count 400 days from the last time a cookie was set); a value
  /// set in the same request comes after it, so it wins; a tampered one is
  /// not renewed.
  @Test func renewingResendsTheCarriedValues() throws {
    let defaults = makeDefaults()
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    let scope = defaults.scope(nil, cookies: ["ChecklistIndex": "3"])
    scope.renewCookies()
    #expect(scope.hasChanges)
    #expect(try scope.commit() == [.renew(key: "ChecklistIndex", value: "3")])
    #expect(recorder.changes == [], "a renewal is not a change")
    let moved = defaults.scope(nil, cookies: ["ChecklistIndex": "3"])
    moved.renewCookies()
    moved.set(7, forKey: "ChecklistIndex")
    #expect(
      try moved.commit() == [
        .renew(key: "ChecklistIndex", value: "3"), .set(key: "ChecklistIndex", value: "7"),
      ])
    let setFirst = defaults.scope(nil, cookies: ["ChecklistIndex": "3"])
    setFirst.set(7, forKey: "ChecklistIndex")
    setFirst.renewCookies()
    #expect(
      try setFirst.commit() == [.set(key: "ChecklistIndex", value: "7")],
      "a value set before the renewal is not renewed")
    let removed = defaults.scope(nil, cookies: ["ChecklistIndex": "3"])
    removed.renewCookies()
    removed.removeObject(forKey: "ChecklistIndex")
    #expect(try removed.commit() == [.remove(key: "ChecklistIndex")])
    let tampered = defaults.scope(nil, cookies: ["ChecklistIndex": "3x"])
    tampered.renewCookies()
    #expect(try tampered.commit() == [])
  }

  @Test func aChangeNamesItsKeyAndValue() {
    #expect(CookieChange.set(key: "K", value: "1").key == "K")
    #expect(CookieChange.renew(key: "K", value: "2").value == "2")
    #expect(CookieChange.remove(key: "K").key == "K")
    #expect(CookieChange.remove(key: "K").value == nil)
  }
}
