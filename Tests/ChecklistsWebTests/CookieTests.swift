import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Logging
import Preferences
import Storage
import TestSupport
import Testing

@testable import ChecklistsWeb

/// A request's `Cookie` field, parsed.
@Suite struct CookiesTests {
  @Test func parsingIsLenientAndTheFirstOccurrenceWins() {
    let cookies = Cookies(
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
    #expect(Cookies(header: nil)["a"] == nil)
    #expect(Cookies(header: "")["a"] == nil)
    #expect(Cookies(header: ";;; ;")["a"] == nil)
    let odd = Cookies(header: "\u{0}=\u{1}; ä=ö; x=\u{FFFD}")
    #expect(odd["ä"] == "ö")
    #expect(odd["x"] == "\u{FFFD}")
  }

  /// Past `Cookies.indexedFrom` cookies the names are found through an
  /// index: the same answers, the first occurrence still winning, and equal
  /// whatever the order.
  @Test func manyCookiesAreReadAsFewAre() {
    let count = Cookies.indexedFrom * 3
    let names = (0..<count).map { "n\($0)" }
    let header = names.map { "\($0)=v-\($0)" }.joined(separator: "; ")
    let cookies = Cookies(header: header + "; n0=late; n\(count - 1)=late; extra=1")
    for name in names { #expect(cookies[name] == "v-\(name)") }
    #expect(cookies["extra"] == "1")
    #expect(cookies["missing"] == nil)
    let reversed = Cookies(
      header: (names.reversed() + ["extra"]).map { "\($0)=\($0 == "extra" ? "1" : "v-\($0)")" }
        .joined(separator: ";"))
    #expect(cookies == reversed)
    #expect(cookies != Cookies(header: header))
    #expect(Cookies(header: "a=1; b=2") == Cookies(header: "b=2; a=1"))
    #expect(Cookies(header: "a=1; b=2") != Cookies(header: "a=1; b=3"))
  }

  /// Under HTTPS a value lives in its `__Host-` cookie; the plain cookie a
  /// browser kept from before is still read there; over HTTP a `__Host-`
  /// cookie is not the product's.
  @Test func httpsReadsThePrefixedCookieFirstThenThePlainOne() {
    let both = Cookies(header: "ChecklistIndex=2; __Host-ChecklistIndex=5")
    #expect(both.value(named: "ChecklistIndex", isHTTPS: true) == "5")
    #expect(both.value(named: "ChecklistIndex", isHTTPS: false) == "2")
    let plain = Cookies(header: "ChecklistIndex=2")
    #expect(plain.value(named: "ChecklistIndex", isHTTPS: true) == "2")
    let prefixed = Cookies(header: "__Host-ChecklistIndex=5")
    #expect(prefixed.value(named: "ChecklistIndex", isHTTPS: false) == nil)
  }

  @Test func aRequestsCookiesComeFromItsCookieField() {
    let request = Request(
      method: .get, path: "/", headerFields: [.cookie: "visitor=1; ChecklistIndex=3"])
    #expect(request.cookies["visitor"] == "1")
    #expect(request.cookies["ChecklistIndex"] == "3")
    #expect(Request(method: .get, path: "/").cookies == Cookies(header: nil))
  }
}

/// The `Set-Cookie` fields the product sends.
@Suite struct CookieTests {
  @Test func aLongLivedCookieIsKept400DaysAndSecureOnlyOnHTTPS() {
    #expect(Cookie.longMaxAge == 400 * 86_400)
    #expect(
      Cookie.longLived(name: "ChecklistIndex", value: "3", secure: false).headerValue
        == "ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax")
    #expect(
      Cookie.longLived(name: "ChecklistIndex", value: "4", secure: true).headerValue
        == "__Host-ChecklistIndex=4; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure")
  }

  @Test func deletionsMatchWhatWasSet() {
    #expect(
      Cookie.deletion(name: "ChecklistIndex", secure: true).headerValue
        == "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure")
    #expect(
      Cookie.deletion(name: "ChecklistIndex", secure: false).headerValue
        == "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")
    #expect(
      Cookie.plainDeletion(name: "visitor").headerValue
        == "visitor=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure")
  }

  @Test func attributesAreWrittenOnlyWhenSet() {
    let session = Cookie(
      name: "a", value: "b", maxAge: nil, secure: false, httpOnly: false, sameSite: "",
      path: "/x")
    #expect(session.headerValue == "a=b; Path=/x")
  }

  /// A response says each cookie once: a later cookie of a name replaces
  /// the earlier one and goes last; other fields stay where they are.
  @Test func settingACookieReplacesOneOfTheSameName() {
    var response = Response(status: .seeOther, headerFields: [.location: "/"])
    response.setCookie(.longLived(name: "a", value: "1", secure: false))
    response.setCookie(.longLived(name: "ab", value: "2", secure: false))
    response.setCookie(.longLived(name: "__Host-a", value: "3", secure: false))
    response.setCookie(.deletion(name: "a", secure: false))
    #expect(response.headerFields[.location] == "/")
    #expect(
      response.setCookies == [
        "ab=2; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax",
        "__Host-a=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax",
        "a=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
      ])
    #expect(response.headerFields.first?.name == .location)
  }
}

/// The preferences' cookie changes as the `Set-Cookie` fields of a
/// response (`VisitorSession.preferenceCookies(for:)`).
@Suite struct PreferenceCookieTests {
  private let data = TemporaryDirectory("checklists-cookies")
  private let defaults: Defaults = {
    let defaults = Defaults(logger: Logger(label: "test"), durable: false)
    RegisteredDefaults.register(in: defaults)
    return defaults
  }()

  /// One request's session: its cookies as the browser sent them (no
  /// visitor cookie: nothing is renewed unless a test says so).
  private func session(cookie: String?, https: Bool) -> VisitorSession {
    let request = Request(
      method: .get, path: "/lists", headerFields: cookie.map { [.cookie: $0] } ?? [:],
      isHTTPS: https)
    let devices = DeviceStore(dataDirectory: data.path, durable: false)
    let visitor = VisitorSession.Visitor(
      cookies: request.cookies, isHTTPS: https, devices: devices, now: Date())
    return VisitorSession(
      request: request, cookies: request.cookies, visitor: visitor, defaults: defaults,
      devices: devices, now: Date())
  }

  /// The `Set-Cookie` values of a response that commits the session.
  private func setCookies(_ session: VisitorSession) throws -> [String] {
    var response = Response()
    for cookie in session.preferenceCookies(for: try session.preferences.commit()) {
      response.setCookie(cookie)
    }
    return response.setCookies
  }

  private let key = PreferenceKey.checklistIndex

  @Test func aSetValueIsSentLongLivedAndSecureOnlyOnHTTPS() throws {
    let plain = session(cookie: nil, https: false)
    plain.preferences.set(3, forKey: key)
    #expect(
      try setCookies(plain) == [
        "ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"
      ])
    let secure = session(cookie: nil, https: true)
    secure.preferences.set(4, forKey: key)
    #expect(
      try setCookies(secure) == [
        "__Host-ChecklistIndex=4; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure"
      ])
  }

  @Test func aRemovedValueDeletesItsCookie() throws {
    let scope = session(cookie: "__Host-ChecklistIndex=2", https: true)
    scope.preferences.removeObject(forKey: key)
    #expect(scope.preferences.integer(forKey: key) == -1)
    #expect(
      try setCookies(scope) == [
        "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure"
      ])
  }

  /// Under HTTPS the plain cookie a browser kept from before `__Host-` is
  /// read, and dropped when the value is removed or renewed.
  @Test func httpsReadsTheLegacyPlainCookieAndDropsIt() throws {
    let legacy = session(cookie: "ChecklistIndex=2", https: true)
    #expect(legacy.preferences.integer(forKey: key) == 2)
    legacy.preferences.removeObject(forKey: key)
    #expect(
      try setCookies(legacy) == [
        "__Host-ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
        "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
      ])
    let both = session(cookie: "ChecklistIndex=2; __Host-ChecklistIndex=5", https: true)
    #expect(both.preferences.integer(forKey: key) == 5, "the prefixed cookie wins")
    let plainHTTP = session(cookie: "__Host-ChecklistIndex=5", https: false)
    #expect(plainHTTP.preferences.integer(forKey: key) == -1, "no __Host- cookie over HTTP")
  }

  /// A renewal re-sends the carried value; a value set in the same request
  /// wins; under HTTPS the plain cookie is dropped with the renewal.
  @Test func renewingResendsTheCarriedValue() throws {
    let renewed = session(cookie: "ChecklistIndex=3", https: false)
    renewed.preferences.renewCookies()
    #expect(
      try setCookies(renewed) == [
        "ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"
      ])
    let moved = session(cookie: "ChecklistIndex=3", https: false)
    moved.preferences.renewCookies()
    moved.preferences.set(7, forKey: key)
    #expect(
      try setCookies(moved) == [
        "ChecklistIndex=7; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax"
      ])
    let secure = session(cookie: "ChecklistIndex=3", https: true)
    secure.preferences.renewCookies()
    #expect(
      try setCookies(secure) == [
        "__Host-ChecklistIndex=3; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure",
        "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
      ])
    let secureMoved = session(cookie: "ChecklistIndex=3", https: true)
    secureMoved.preferences.renewCookies()
    secureMoved.preferences.set(7, forKey: key)
    #expect(
      try setCookies(secureMoved) == [
        "ChecklistIndex=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
        "__Host-ChecklistIndex=7; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure",
      ])
  }

  /// A set without a renewal leaves the plain cookie alone: it is dropped
  /// once a day, with the renewal.
  @Test func aSetAloneKeepsThePlainCookie() throws {
    let scope = session(cookie: "__Host-visitor=x; ChecklistIndex=3", https: true)
    scope.preferences.set(7, forKey: key)
    #expect(
      try setCookies(scope) == [
        "__Host-ChecklistIndex=7; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax; Secure"
      ])
  }

  /// Every sequence of up to three changes, with and without a renewal
  /// first, over HTTP and HTTPS, with each kind of cookie a browser may
  /// carry: the fields are those of `CookieQueue`, the rule stated
  /// directly (each operation's cookies queued by name, a later one
  /// replacing an earlier one of the same name).
  @Test func everySequenceOfChangesSendsWhatTheRuleSays() throws {
    let operations: [CookieQueue.Operation] = [.set(3), .set(5), .remove]
    var sequences: [[CookieQueue.Operation]] = [[]]
    var longest: [[CookieQueue.Operation]] = [[]]
    for _ in 1...3 {
      longest = longest.flatMap { sequence in operations.map { sequence + [$0] } }
      sequences += longest
    }
    let carried = [
      nil, "ChecklistIndex=2", "__Host-ChecklistIndex=2",
      "ChecklistIndex=2; __Host-ChecklistIndex=5",
      "ChecklistIndex=x", "ChecklistIndex=5",
    ]
    var checked = 0
    for https in [false, true] {
      for cookie in carried {
        for renewal in [false, true] {
          for sequence in sequences {
            let request = Cookies(header: cookie)
            var queue = CookieQueue(request: request, https: https)
            let scope = session(cookie: cookie, https: https)
            if renewal {
              queue.renew()
              scope.preferences.renewCookies()
            }
            for operation in sequence {
              queue.apply(operation)
              switch operation {
              case .set(let value): scope.preferences.set(value, forKey: key)
              case .remove: scope.preferences.removeObject(forKey: key)
              }
            }
            #expect(
              try setCookies(scope) == queue.sent,
              "\(cookie ?? "no cookie"), https \(https), renewal \(renewal), \(sequence)")
            checked += 1
          }
        }
      }
    }
    #expect(checked == 2 * carried.count * 2 * 40)
  }
}

/// The `Set-Cookie` rule for `ChecklistIndex`, stated directly: each
/// operation queues its cookies by name, and a cookie replaces an earlier
/// one of the same name, which leaves the queue.
private struct CookieQueue {
  enum Operation: CustomStringConvertible {
    case set(Int)
    case remove
    var description: String {
      switch self {
      case .set(let value): "set \(value)"
      case .remove: "remove"
      }
    }
  }

  let request: Cookies
  let https: Bool
  /// The value this request set (`.some(nil)`: removed).
  private var override: Int??
  private var queued: [Cookie] = []

  init(request: Cookies, https: Bool) {
    self.request = request
    self.https = https
  }

  var sent: [String] { queued.map(\.headerValue) }

  /// The cookie as the request carried it, as text.
  private var carried: String? { request.value(named: "ChecklistIndex", isHTTPS: https) }
  private var carriedValue: Int? {
    carried.flatMap { text in text.allSatisfy(\.isNumber) ? Int(text) : nil }
  }
  private var current: Int? { override ?? carriedValue }
  private var plainKept: Bool { https && request["ChecklistIndex"] != nil }

  mutating func renew() {
    guard override == nil, carriedValue != nil, let carried else { return }
    queue(.longLived(name: "ChecklistIndex", value: carried, secure: https))
    if plainKept { queue(.plainDeletion(name: "ChecklistIndex")) }
  }

  mutating func apply(_ operation: Operation) {
    switch operation {
    case .set(let value):
      guard current != value else { return }
      override = .some(value)
      queue(.longLived(name: "ChecklistIndex", value: String(value), secure: https))
    case .remove:
      let present = override.map { $0 != nil } ?? (carried != nil)
      override = .some(nil)
      if present { queue(.deletion(name: "ChecklistIndex", secure: https)) }
      if plainKept { queue(.plainDeletion(name: "ChecklistIndex")) }
    }
  }

  private mutating func queue(_ cookie: Cookie) {
    queued.removeAll { $0.name == cookie.name }
    queued.append(cookie)
  }
}
