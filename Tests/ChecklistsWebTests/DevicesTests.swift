import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The Devices screen and `/link` through the application's handlers: a code
/// made, redeemed by another browser, refused when wrong, limited per
/// address; browsers signed out.
@Suite struct DevicesTests {
  /// Makes a link code on `browser`'s Devices screen and returns its text.
  func makeCode(_ browser: ApplicationHarness) throws -> String {
    let page = browser.post("/settings/devices/code")
    #expect(page.status == .ok)
    #expect(page.headerFields[.cacheControl] == "no-store")
    let text = browser.text(page)
    let start = try #require(
      text.range(of: "<span class=\"visually-hidden\">Code: </span><strong>"))
    let end = try #require(text[start.upperBound...].range(of: "</strong>"))
    return String(text[start.upperBound..<end.lowerBound])
  }

  func itemTexts(_ browser: ApplicationHarness, list: Int = 1) -> [String] {
    let page = browser.text(browser.get("/lists/\(list)"))
    return page.components(separatedBy: "<button class=check").dropFirst().compactMap {
      guard let close = $0.firstIndex(of: ">"), let end = $0.range(of: "</button>") else {
        return nil
      }
      return String($0[$0.index(after: close)..<end.lowerBound])
    }
  }

  @Test func aRedeemedCodeGivesTheSameListsUnderANewToken() throws {
    let laptop = try ApplicationHarness()
    laptop.post("/lists/1/items", [("text", "Milk")])
    let code = try makeCode(laptop)
    #expect(code.count == 34)  // 28 characters in 7 groups of four

    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    let before = try #require(phone.cookies["visitor"])
    let answer = phone.post("/link", [("code", code)])
    #expect(answer.status == .seeOther)
    #expect(answer.headerFields[.location] == "/lists")
    #expect(answer.setCookies.filter { $0.hasPrefix("visitor=") }.count == 1)
    #expect(phone.cookies["visitor"] != before)
    #expect(itemTexts(phone) == ["Milk"])

    // Spent: a third browser is refused, and nothing it sees changes.
    let late = try laptop.anotherBrowser()
    late.get("/link")
    let refused = late.post("/link", [("code", code)])
    #expect(refused.status == .unprocessableContent)
    #expect(late.text(refused).contains("does not work"))
    #expect(itemTexts(late) != ["Milk"])
  }

  /// A browser whose cookie is due for renewal when it redeems keeps the
  /// new token the redeem gave it, not a renewal of the old one.
  @Test func theNewTokenWinsOverADueRenewal() throws {
    let laptop = try ApplicationHarness()
    laptop.post("/lists/1/items", [("text", "Milk")])
    let code = try makeCode(laptop)
    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    let token = phone.csrf()
    let id = try #require(phone.cookies["visitor"]?.split(separator: ".").first)
    phone.cookies["visitor"] = "\(id).\(VisitorCookie.today() - 3)"  // due for renewal
    let answer = phone.post("/link", [("code", code)], token: token)
    #expect(answer.status == .seeOther)
    let set = answer.setCookies.filter { $0.hasPrefix("visitor=") }
    #expect(set.count == 1)
    #expect(set.first.map { !$0.hasPrefix("visitor=\(id)") } == true)
    #expect(itemTexts(phone) == ["Milk"])
  }

  @Test func theEleventhWrongCodeFromOneAddressIs429() throws {
    let owner = try ApplicationHarness()
    let code = try makeCode(owner)
    let guesser = try owner.anotherBrowser()
    guesser.get("/link")
    let token = guesser.csrf()
    func attempt(_ typed: String, from address: String) -> Response {
      let body = "code=\(ApplicationHarness.encode(typed))&csrf=\(token)"
      return guesser.send(
        Request(
          method: .post, path: "/link",
          headerFields: [.contentType: "application/x-www-form-urlencoded"],
          remoteAddress: address, body: Array(body.utf8)))
    }
    for guess in 0..<10 {
      #expect(attempt(String(repeating: "\(guess)", count: 28), from: "192.0.2.7").status == 422)
    }
    let limited = attempt("K" + String(repeating: "0", count: 27), from: "192.0.2.7")
    #expect(limited.status == .tooManyRequests)
    #expect(Int(limited.headerFields[.retryAfter] ?? "") ?? 0 >= 1)
    #expect(attempt(code, from: "192.0.2.7").status == .tooManyRequests)
    // Another address is not held back.
    #expect(attempt(code, from: "192.0.2.8").status == .seeOther)
  }

  @Test func theLinkPageIsTheSameForAnyCodeAndTellsItsOwnHeaders() throws {
    let owner = try ApplicationHarness()
    let code = try makeCode(owner)
    let canonical = code.replacing("-", with: "")
    let visitor = try owner.anotherBrowser()
    visitor.get("/")
    let real = visitor.get("/link/\(canonical.lowercased())")
    let nobodys = visitor.get("/link/" + String(repeating: "z", count: 28))
    #expect(real.status == .ok && nobodys.status == .ok)
    #expect(real.headerFields[.referrerPolicy] == "origin")
    #expect(real.headerFields[.xRobotsTag] == "noindex, nofollow")
    #expect(real.headerFields[.cacheControl] == "no-store")
    let zs = String(repeating: "ZZZZ-", count: 7).dropLast()
    #expect(visitor.text(nobodys).replacing(zs, with: code) == visitor.text(real))
    // Opening it spent nothing.
    let tablet = try owner.anotherBrowser()
    tablet.get("/link")
    #expect(tablet.post("/link", [("code", code)]).status == .seeOther)
  }

  @Test func aSignedOutBrowserIsANewVisitorAndItsOldFormsAreRefused() throws {
    let laptop = try ApplicationHarness()
    laptop.post("/lists/1/items", [("text", "Milk")])
    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    #expect(phone.post("/link", [("code", try makeCode(laptop))]).status == .seeOther)
    let oldToken = phone.csrf()
    let oldCookie = phone.cookies["visitor"]

    let devices = laptop.text(laptop.get("/settings/devices"))
    #expect(devices.contains("/settings/devices/2/sign-out"))
    #expect(
      laptop.post("/settings/devices/2/sign-out").headerFields[.location]
        == "/settings/devices?signed-out")
    // Once more: nothing to do, and it says so.
    #expect(
      laptop.post("/settings/devices/2/sign-out").headerFields[.location]
        == "/settings/devices?already-signed-out")

    let before = laptop.storedFiles()
    let refused = phone.post("/lists/1/items", [("text", "Eggs")], token: oldToken)
    #expect(refused.status == .forbidden)
    #expect(phone.cookies["visitor"] != oldCookie)
    #expect(itemTexts(phone) == [])
    #expect(laptop.storedFiles() == before)
    #expect(itemTexts(laptop) == ["Milk"])
  }
}
