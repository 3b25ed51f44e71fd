import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// What a browser, a link code or a damaged devices file can do to the
/// owner's other data (issue 24): the last browser is never signed out by
/// one press while links still reach the lists, a browser linked a moment
/// ago cannot sign out older ones, a redeem says what it puts aside and
/// can be undone, signing a browser out can replace what it saw, and a
/// devices file that cannot be read keeps everybody out until repaired.
@Suite struct DeviceSafetyTests {
  static var shareLink: Regex<(Substring, Substring)> { #/value="[^"]*/s/([0-9a-f]{32})"/# }
  static var calendar: Regex<(Substring, Substring)> { #//calendar/([0-9a-f]{64})\.ics/# }

  /// Makes a link code on `browser`'s Devices screen and returns its text.
  func makeCode(_ browser: ApplicationHarness) throws -> String {
    let page = browser.text(browser.post("/settings/devices/code"))
    let start = try #require(
      page.range(of: "<span class=\"visually-hidden\">Code: </span><strong>"))
    let end = try #require(page[start.upperBound...].range(of: "</strong>"))
    return String(page[start.upperBound..<end.lowerBound])
  }

  /// A browser with "Milk" on list 1 and `phone`, linked to it by a code.
  func laptopAndPhone() throws -> (laptop: ApplicationHarness, phone: ApplicationHarness) {
    let laptop = try ApplicationHarness()
    #expect(laptop.post("/lists/1/items", [("text", "Milk")]).status == .seeOther)
    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    #expect(phone.post("/link", [("code", try makeCode(laptop))]).status == .seeOther)
    return (laptop, phone)
  }

  func seesMilk(_ browser: ApplicationHarness) -> Bool {
    browser.text(browser.get("/lists/1")).contains("Milk")
  }

  /// The read-only link of list 1, made now.
  func shareList(_ browser: ApplicationHarness) throws -> String {
    #expect(browser.post("/lists/1/share/read-only").status == .seeOther)
    let page = browser.text(browser.get("/lists/1/edit"))
    return try #require(page.firstMatch(of: Self.shareLink)).output.1.description
  }

  func calendarSecret(_ browser: ApplicationHarness) -> String? {
    browser.text(browser.get("/settings")).firstMatch(of: Self.calendar).map {
      String($0.output.1)
    }
  }

  /// What a stranger with no cookie gets at `path`.
  func anonymousStatus(_ browser: ApplicationHarness, _ path: String) -> HTTPResponse.Status {
    browser.anotherCookieJar().get(path).status
  }

  // MARK: Point 2: the last browser

  /// Signing out the only browser while a share link and the calendar
  /// address still reach the lists asks first and changes nothing; the
  /// confirmation ends both, and only then is the browser signed out.
  @Test func theLastBrowserIsNotSignedOutByOnePressWhileLinksReachTheLists() throws {
    let browser = try ApplicationHarness()
    #expect(browser.post("/lists/1/items", [("text", "Milk")]).status == .seeOther)
    let token = try shareList(browser)
    #expect(browser.post("/settings/calendar").status == .seeOther)
    let secret = try #require(calendarSecret(browser))
    let devices = browser.text(browser.get("/settings/devices"))
    #expect(devices.contains("/settings/devices/1/sign-out"))

    let before = browser.storedFiles()
    let asked = browser.post("/settings/devices/1/sign-out")
    #expect(asked.status == .ok, "asks, not \(asked.status)")
    let page = browser.text(asked)
    #expect(page.contains("share link") && page.contains("calendar address"), "\(page)")
    #expect(page.contains("name=\"confirm\""))
    #expect(browser.storedFiles() == before, "asking changed nothing")
    #expect(seesMilk(browser))
    #expect(anonymousStatus(browser, "/s/\(token)") == .ok)

    let confirmed = browser.post("/settings/devices/1/sign-out", [("confirm", "yes")])
    #expect(confirmed.status == .seeOther)
    #expect(anonymousStatus(browser, "/s/\(token)") == .notFound)
    #expect(anonymousStatus(browser, "/calendar/\(secret).ics") == .notFound)
    #expect(!seesMilk(browser), "signed out: a new visitor")
  }

  /// The same through Sign Out Everywhere Else, then this browser.
  @Test func signingOutEverywhereElseThenThisBrowserAsksToo() throws {
    let (laptop, phone) = try laptopAndPhone()
    let token = try shareList(laptop)
    #expect(laptop.post("/settings/devices/sign-out-others").status == .seeOther)
    #expect(!seesMilk(phone))
    let asked = laptop.post("/settings/devices/1/sign-out")
    #expect(asked.status == .ok)
    #expect(seesMilk(laptop))
    #expect(anonymousStatus(laptop, "/s/\(token)") == .ok)
  }

  // MARK: Point 6: a leaked code

  /// A browser linked a minute ago signs out neither the founding browser
  /// nor everyone else; the page says until when.
  @Test func aBrowserLinkedJustNowCannotSignOutOlderOnes() throws {
    let (laptop, phone) = try laptopAndPhone()
    let refused = phone.post("/settings/devices/1/sign-out")
    #expect(refused.status == .forbidden, "\(refused.status)")
    #expect(phone.text(refused).contains("24 hours"))
    #expect(phone.post("/settings/devices/sign-out-others").status == .forbidden)
    #expect(seesMilk(laptop))
    let devices = phone.text(phone.get("/settings/devices"))
    #expect(!devices.contains("action=\"/settings/devices/1/sign-out\""))
    #expect(devices.contains("24 hours"))
    // The founding browser may sign the new one out at once.
    #expect(laptop.post("/settings/devices/2/sign-out").status == .seeOther)
    #expect(!seesMilk(phone))
  }

  /// The link's page names the lists this browser would put aside.
  @Test func theLinkPageSaysWhichOfThisBrowsersListsGoAside() throws {
    let attacker = try ApplicationHarness()
    let code = try makeCode(attacker)
    let victim = try attacker.anotherBrowser()
    #expect(victim.post("/lists/1/items", [("text", "Passport number")]).status == .seeOther)
    #expect(victim.post("/lists", [("name", "Taxes"), ("icon", "folder")]).status == .seeOther)
    let page = victim.text(victim.get("/link/\(code.replacing("-", with: "").lowercased())"))
    #expect(page.contains("Taxes") && page.contains("List"), "\(page)")
    #expect(page.contains("Switch Back"))
    #expect(!page.contains("the calendar address"), "nothing else reaches its lists")
    // A browser with nothing of its own is told nothing of the kind.
    let fresh = try attacker.anotherBrowser()
    #expect(!fresh.text(fresh.get("/link")).contains("Switch Back"))
  }

  /// After a code is redeemed, this browser can switch back to its own
  /// lists (for 30 days), and the lists it joined stay with their owner.
  @Test func aRedeemingBrowserCanSwitchBackToItsOwnLists() throws {
    let attacker = try ApplicationHarness()
    #expect(attacker.post("/lists/1/items", [("text", "Bait")]).status == .seeOther)
    let code = try makeCode(attacker)
    let victim = try attacker.anotherBrowser()
    #expect(victim.post("/lists/1/items", [("text", "Passport number")]).status == .seeOther)
    #expect(victim.post("/link", [("code", code)]).status == .seeOther)
    #expect(victim.text(victim.get("/lists/1")).contains("Bait"))
    let devices = victim.text(victim.get("/settings/devices"))
    #expect(devices.contains("/settings/devices/switch-back"))

    let back = victim.post("/settings/devices/switch-back")
    #expect(back.status == .seeOther)
    let page = victim.text(victim.get("/lists/1"))
    #expect(page.contains("Passport number") && !page.contains("Bait"))
    #expect(attacker.text(attacker.get("/lists/1")).contains("Bait"))
  }

  /// The way back is kept 30 days from the redeem, never longer: the
  /// cookie's Max-Age counts down, and a value older than that (or from
  /// the future, or malformed) is no way back at all.
  @Test func theWayBackIsKeptThirtyDays() throws {
    let id = VisitorID()
    let today = 20_000
    func previous(_ value: String, https: Bool = false) -> PreviousBrowser? {
      let name = https ? "__Host-previous-visitor" : "previous-visitor"
      return PreviousBrowser(
        cookies: Cookies(header: "\(name)=\(value)"), isHTTPS: https, today: today)
    }
    let kept = PreviousBrowser(id: id, day: today - 29)
    #expect(previous(kept.kept.value) == kept)
    #expect(previous(kept.kept.value, https: true) == kept)
    #expect(kept.cookie(secure: false, today: today).maxAge == 86_400)
    #expect(kept.cookie(secure: true, today: today).name == "__Host-previous-visitor")
    #expect(
      PreviousBrowser(id: id, day: today).cookie(secure: false, today: today).maxAge == 30 * 86_400)
    #expect(previous(PreviousBrowser(id: id, day: today - 30).kept.value) == nil)
    #expect(previous(PreviousBrowser(id: id, day: today + 1).kept.value) == nil)
    #expect(previous(id.cookieValue) == nil, "no day: no way to tell its age")
    #expect(previous("../etc") == nil)
    // Under HTTPS a plain cookie (planted from a sibling host or over
    // plain HTTP) is no way back.
    #expect(
      PreviousBrowser(
        cookies: Cookies(header: "previous-visitor=\(kept.kept.value)"), isHTTPS: true,
        today: today) == nil)
  }

  // MARK: Point 10: what a signed-out browser saw

  /// Signing a browser out can replace, in the same step, the calendar
  /// address and the share links it may have kept.
  @Test func signingABrowserOutCanReplaceTheCalendarAddressAndShareLinks() throws {
    let (laptop, _) = try laptopAndPhone()
    let token = try shareList(laptop)
    #expect(laptop.post("/settings/calendar").status == .seeOther)
    let secret = try #require(calendarSecret(laptop))
    let devices = laptop.text(laptop.get("/settings/devices"))
    #expect(
      devices.contains("name=\"replace-calendar\"") && devices.contains("name=\"replace-links\""))

    let answer = laptop.post(
      "/settings/devices/2/sign-out", [("replace-calendar", "yes"), ("replace-links", "yes")])
    #expect(answer.status == .seeOther)
    #expect(anonymousStatus(laptop, "/s/\(token)") == .notFound)
    #expect(anonymousStatus(laptop, "/calendar/\(secret).ics") == .notFound)
    let newSecret = try #require(calendarSecret(laptop))
    #expect(newSecret != secret)
    #expect(anonymousStatus(laptop, "/calendar/\(newSecret).ics") == .ok)
    let newToken = try #require(
      laptop.text(laptop.get("/lists/1/edit")).firstMatch(of: Self.shareLink)
    ).output.1
    #expect(newToken != token)
    #expect(anonymousStatus(laptop, "/s/\(newToken)") == .ok)
  }

  /// With only a calendar address, nothing offers or speaks of share
  /// links (a count of 0 would still open a template's section).
  @Test func onlyWhatExistsIsOfferedOrEnded() throws {
    let (laptop, phone) = try laptopAndPhone()
    #expect(laptop.post("/settings/calendar").status == .seeOther)
    let devices = laptop.text(laptop.get("/settings/devices"))
    #expect(devices.contains("name=\"replace-calendar\""))
    #expect(!devices.contains("name=\"replace-links\""))
    #expect(laptop.post("/settings/devices/2/sign-out").status == .seeOther)
    #expect(!seesMilk(phone))
    let asked = laptop.text(laptop.post("/settings/devices/1/sign-out"))
    #expect(asked.contains("the calendar address") && !asked.contains("share link"), "\(asked)")
  }

  /// A new visitor finds "Use a code from another device" on the first
  /// page it sees, on All Lists and on Settings.
  @Test func aNewVisitorFindsTheWayToLink() throws {
    let browser = try ApplicationHarness()
    for path in ["/lists/1", "/lists", "/settings"] {
      let page = browser.text(browser.get(path))
      #expect(page.contains("<a href=\"/link\">Use a code from another device</a>"), "\(path)")
    }
  }

  // MARK: Point 5: a devices file that cannot be read

  /// Rewrites the owner's devices file as `transform` says.
  func rewriteDevicesFile(in data: String, _ transform: (Data) throws -> Data) throws {
    let users = URL(fileURLWithPath: data + "/users")
    let found = FileManager.default.enumerator(at: users, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.first { $0.lastPathComponent == "Devices.plist" }
    let url = try #require(found)
    try transform(try Data(contentsOf: url)).write(to: url)
  }

  /// A devices file of a newer version, or one that cannot be read, is
  /// answered 503 for the founding and the linked browser alike, and kept
  /// where it is: nobody is let in, nobody is locked out for good.
  @Test(arguments: ["newer", "corrupt"])
  func aDevicesFileThatCannotBeReadKeepsEveryoneOut(_ damage: String) throws {
    let (laptop, phone) = try laptopAndPhone()
    try rewriteDevicesFile(in: laptop.data) { data in
      guard damage == "newer" else { return Data("<?xml version=\"1.0\"?><plist><dict>".utf8) }
      var plist = try #require(
        try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
      plist["version"] = 99
      return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    }
    let laptopCookie = laptop.cookies["visitor"]
    let phoneCookie = phone.cookies["visitor"]
    for browser in [laptop, phone] {
      let answer = browser.get("/lists/1")
      #expect(answer.status == .serviceUnavailable, "\(answer.status)")
      #expect(browser.text(answer).contains("which browsers may use these lists"))
    }
    #expect(laptop.cookies["visitor"] == laptopCookie && phone.cookies["visitor"] == phoneCookie)
    let names = try FileManager.default.subpathsOfDirectory(atPath: laptop.data + "/users")
    #expect(names.contains { $0.hasSuffix("/Devices.plist") }, "kept in place")
    #expect(!names.contains { $0.contains("Devices.plist.corrupt") })
  }
}
