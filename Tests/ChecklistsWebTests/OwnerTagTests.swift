import FastCGI
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Every answer of the visitor group names its owner (`Checklists-Owner`),
/// which the service worker keeps its offline copies under: the same for
/// every browser of one owner and every kind of answer, another for
/// another owner, a new one for a browser signed out, none for a link.
@Suite struct OwnerTagTests {
  func tag(_ response: Response) -> String? {
    response.headerFields[OwnerTag.fieldName]
  }

  func makeCode(_ browser: ApplicationHarness) throws -> String {
    let text = browser.text(browser.post("/settings/devices/code"))
    let start = try #require(
      text.range(of: "<span class=\"visually-hidden\">Code: </span><strong>"))
    let end = try #require(text[start.upperBound...].range(of: "</strong>"))
    return String(text[start.upperBound..<end.lowerBound])
  }

  @Test func everyAnswerOfOneVisitorNamesTheSameOwner() throws {
    let laptop = try ApplicationHarness()
    let first = try #require(tag(laptop.get("/lists")))
    #expect(first.count == 32 && first.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    let page = laptop.get("/lists/1")
    #expect(tag(page) == first)
    #expect(tag(laptop.get("/lists/1")) == first)  // kept whole by the memo
    let etag = try #require(page.headerFields[.eTag])
    let notModified = laptop.get("/lists/1", headerFields: [.ifNoneMatch: etag])
    #expect(notModified.status == .notModified)
    #expect(tag(notModified) == first)
    #expect(tag(laptop.post("/lists/1/items", [("text", "Milk")])) == first)
    #expect(tag(laptop.get("/lists/999")) == first)  // an error page too
  }

  @Test func anotherOwnerHasAnotherTagAndALinkedBrowserItsOwners() throws {
    let laptop = try ApplicationHarness()
    let owner = try #require(tag(laptop.get("/lists")))
    let stranger = try laptop.anotherBrowser()
    #expect(try #require(tag(stranger.get("/lists"))) != owner)

    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    #expect(phone.post("/link", [("code", try makeCode(laptop))]).status == .seeOther)
    #expect(tag(phone.get("/lists")) == owner)

    #expect(
      laptop.post("/settings/devices/2/sign-out").headerFields[.location]
        == "/settings/devices?signed-out")
    let signedOut = try #require(tag(phone.get("/lists")))
    #expect(signedOut != owner)
  }

  @Test func aSharedListsPageNamesNoOwner() throws {
    let laptop = try ApplicationHarness()
    laptop.post("/lists/1/share/read-only")
    let form = laptop.text(laptop.get("/lists/1/edit"))
    let start = try #require(form.range(of: #"/s/[0-9a-zA-Z]+"#, options: .regularExpression))
    let shared = laptop.anotherCookieJar().get(String(form[start]))
    #expect(shared.status == .ok)
    #expect(tag(shared) == nil)
  }
}
