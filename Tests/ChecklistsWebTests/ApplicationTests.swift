import ChecklistsWeb
import FastCGI
import Foundation
import HTTPTypes
import Logging
import TestSupport
import Testing
import WebTestSupport

/// Every route and rule of the product, through `Application.respond(to:)`.
@Suite struct ApplicationTests {
  @Test func aNewVisitorLandsInTheFirstRunList() throws {
    let browser = try ApplicationHarness()
    let landing = browser.get("/")
    #expect(landing.status == .seeOther)
    #expect(landing.headerFields[.location] == "/lists/1")
    let visitor = try #require(browser.cookies["visitor"])
    #expect(visitor.wholeMatch(of: /[0-9a-f]{32}\.[0-9]{5,6}/) != nil, "\(visitor)")
    let page = browser.get("/lists/1")
    #expect(page.status == .ok)
    #expect(browser.text(page).contains("<title>List · Checklists</title>"))
    #expect(browser.cookies["ChecklistIndex"] == "0")
    #expect(browser.storedFiles().isEmpty, "a GET never writes a file")
  }

  @Test func theVisitorCookieIsHttpOnlyLaxAndSecureOnlyOverHTTPS() throws {
    let browser = try ApplicationHarness()
    let plain = browser.application.respond(to: Request(method: .get, path: "/lists"))
    let cookie = try #require(plain.setCookies.first { $0.hasPrefix("visitor=") })
    #expect(
      cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
    #expect(!cookie.contains("Secure"))
    let secure = browser.application.respond(
      to: Request(method: .get, path: "/lists", isHTTPS: true))
    #expect(secure.setCookies.allSatisfy { $0.contains("Secure") })
  }

  @Test func allListsSetsMinusOneAndTheLandingThenShowsAllLists() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.get("/lists/1")
    #expect(browser.get("/").headerFields[.location] == "/lists/1")
    browser.get("/lists")
    #expect(browser.cookies["ChecklistIndex"] == "-1")
    let landing = browser.get("/")
    #expect(landing.status == .ok)
    #expect(browser.text(landing).contains("<h1>All Lists</h1>"))
  }

  @Test(arguments: ["abc", "-5", "1e3", "99999999999999999999", "", "+1", "0x1", "7"])
  func aTamperedOrStaleIndexShowsAllLists(_ value: String) throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    browser.cookies["ChecklistIndex"] = value
    let landing = browser.get("/")
    #expect(landing.status == .ok)
    #expect(browser.text(landing).contains("<h1>All Lists</h1>"))
  }

  @Test func openingAListRemembersItsRowForThisBrowser() throws {
    let browser = try ApplicationHarness()
    let created = browser.post("/lists", [("name", "Alpha"), ("icon", "trips")])
    #expect(created.status == .seeOther)
    let alpha = try #require(created.headerFields[.location])
    browser.get(alpha)
    #expect(browser.cookies["ChecklistIndex"] == "0", "Alpha sorts before List")
    #expect(browser.get("/").headerFields[.location] == alpha)
  }

  @Test func listsAreSortedByNameAndShowSubtitles() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists", [("name", "zebra")])
    browser.post("/lists", [("name", "Apple")])
    browser.post("/lists/1/items", [("text", "a")])
    browser.post("/lists/1/items", [("text", "b")])
    let page = browser.text(browser.get("/lists"))
    let apple = try #require(page.range(of: ">Apple<")).lowerBound
    let list = try #require(page.range(of: ">List<")).lowerBound
    let zebra = try #require(page.range(of: ">zebra<")).lowerBound
    #expect(apple < list && list < zebra)
    #expect(page.contains("2 Remaining") && page.contains("(No Items)"))
  }

  @Test func toggleEditAndDeleteAnItem() throws {
    let browser = try ApplicationHarness()
    let added = browser.post("/lists/1/items", [("text", "bread")])
    #expect(added.status == .seeOther && added.headerFields[.location] == "/lists/1")
    #expect(browser.text(browser.get("/lists/1")).contains(#"formaction=1/items/1/toggle "#))
    #expect(browser.post("/lists/1/items/1/toggle").status == .seeOther)
    #expect(browser.text(browser.get("/lists/1")).contains(#"aria-pressed=true"#))
    #expect(browser.text(browser.get("/lists")).contains("All Done!"))
    #expect(browser.post("/lists/1/items/1", [("text", "rye bread")]).status == .seeOther)
    #expect(browser.text(browser.get("/lists/1/items/1/edit")).contains(#"value="rye bread""#))
    #expect(browser.post("/lists/1/items/1/delete").status == .seeOther)
    #expect(browser.get("/lists/1/items/1/edit").status == .notFound)
  }

  @Test func renameAndDeleteAList() throws {
    let browser = try ApplicationHarness()
    #expect(
      browser.post("/lists/1", [("name", "Errands"), ("icon", "chores")]).status == .seeOther)
    let page = browser.text(browser.get("/lists/1/edit"))
    #expect(page.contains(#"value="Errands""#) && page.contains(#"value="chores" checked"#))
    let deleted = browser.post("/lists/1/delete")
    #expect(deleted.status == .seeOther && deleted.headerFields[.location] == "/lists?deleted=1")
    #expect(browser.get("/lists/1").status == .notFound)
    #expect(browser.get("/").status == .ok, "the first run does not come back")
  }

  @Test func aChangeWithoutTheRightTokenIsRefusedAndChangesNothing() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "kept")])
    let before = browser.storedFiles()
    #expect(browser.post("/lists/1/delete", withToken: false).status == .forbidden)
    #expect(
      browser.post("/lists/1/delete", token: String(repeating: "0", count: 64)).status == .forbidden
    )
    let other = try browser.anotherBrowser()
    other.get("/lists")
    #expect(browser.post("/lists/1/delete", token: other.csrf()).status == .forbidden)
    #expect(
      browser.post(
        "/lists/1/delete", authority: "127.0.0.1", headerFields: [.origin: "https://evil.example"]
      )
      .status == .forbidden)
    #expect(
      browser.post("/lists/1/delete", headerFields: [.secFetchSite: "cross-site"]).status
        == .forbidden)
    #expect(browser.storedFiles() == before)
  }

  @Test func aPostFromANewVisitorIsRefused() throws {
    let browser = try ApplicationHarness()
    let response = browser.post("/lists", [("name", "x")], token: String(repeating: "a", count: 64))
    #expect(response.status == .forbidden)
    #expect(browser.storedFiles().isEmpty)
  }

  @Test func malformedFormsAre400Or415AndChangeNothing() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "kept")])
    let token = browser.csrf()
    let before = browser.storedFiles()
    func raw(_ body: [UInt8], type: String = "application/x-www-form-urlencoded")
      -> HTTPResponse.Status
    {
      browser.send(
        Request(
          method: .post, path: "/lists/1/items", headerFields: [.contentType: type], body: body)
      ).status
    }
    #expect(raw(Array("csrf=\(token)&text=%zz".utf8)) == .badRequest)
    #expect(raw(Array("csrf=\(token)&text=%ff%fe".utf8)) == .badRequest)
    #expect(raw(Array("csrf=\(token)&text=a".utf8), type: "text/plain") == .unsupportedMediaType)
    #expect(raw(Array(repeating: UInt8(ascii: "&"), count: 10_000) + Array("a=b".utf8)) != 303)
    #expect(
      browser.send(
        Request(
          method: .post, path: "/lists/1/items",
          headerFields: [.contentType: "application/x-www-form-urlencoded"], bodyTooLarge: true)
      ).status == .contentTooLarge)
    #expect(browser.post("/lists", [("name", "x"), ("icon", "../../etc")]).status == .badRequest)
    #expect(browser.storedFiles() == before)
  }

  @Test func refusedInputComesBackWithWhatWasTyped() throws {
    let browser = try ApplicationHarness()
    let blank = browser.post("/lists", [("name", "  "), ("icon", "trips")])
    #expect(blank.status == .unprocessableContent)
    #expect(browser.text(blank).contains(#"value="trips" checked"#))
    let long = String(repeating: "é", count: 1_001)
    let tooLong = browser.post("/lists/1/items", [("text", long)])
    #expect(tooLong.status == .unprocessableContent)
    browser.post("/lists/1/items", [("text", "fine")])
    let edit = browser.post("/lists/1/items/1", [("text", long)])
    #expect(edit.status == .unprocessableContent && browser.text(edit).contains(long))
    #expect(browser.text(browser.get("/lists/1")).contains("fine"))
  }

  @Test func textIsEscapedWhereverItIsShown() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "<script>alert(1)</script>")])
    browser.post("/lists", [("name", #"<img src=x onerror="alert(1)">"#)])
    for path in ["/lists/1", "/lists", "/lists/2/edit", "/lists/1/items/1/edit"] {
      let page = browser.text(browser.get(path))
      #expect(!page.contains("<script>alert") && !page.contains("<img src=x"), "\(path)")
    }
    #expect(browser.text(browser.get("/lists/1")).contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
  }

  @Test func settingsSaveHideCheckedItemsAndResetInOneStep() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "done")])
    browser.post("/lists/1/items", [("text", "open")])
    browser.post("/lists/1/items/1/toggle")
    let saved = browser.post("/settings", [("OpenLastList", "on"), ("HideCheckedItems", "on")])
    #expect(saved.status == .seeOther && saved.headerFields[.location] == "/settings?saved")
    #expect(browser.text(browser.get("/settings?saved")).contains("Settings saved."))
    let hidden = browser.text(browser.get("/lists/1"))
    #expect(!hidden.contains(">done<") && hidden.contains(">open<"))
    #expect(hidden.contains("1 checked item hidden"))
    #expect(browser.post("/settings/reset").status == .seeOther)
    #expect(browser.text(browser.get("/lists/1")).contains(">done<"))
    let settings = browser.text(browser.get("/settings"))
    #expect(settings.contains(#"name="OpenLastList" value="on" checked"#))
    #expect(!settings.contains(#"name="HideCheckedItems" value="on" checked"#))
    #expect(
      browser.get("/").status == .seeOther, "FirstTime is untouched by the reset: no new List")
    #expect(browser.text(browser.get("/lists")).components(separatedBy: ">List<").count == 2)
  }

  @Test func openLastListOffAlwaysShowsAllLists() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "x")])
    browser.get("/lists/1")
    #expect(browser.get("/").status == .seeOther)
    browser.post("/settings")
    #expect(browser.get("/").status == .ok)
  }

  @Test func perVisitorPagesRevalidateWithTheirETag() throws {
    let browser = try ApplicationHarness()
    let page = browser.get("/lists/1")
    let etag = try #require(page.headerFields[.eTag])
    #expect(page.headerFields[.cacheControl] == "private, no-cache")
    #expect(page.headerFields[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
    let again = browser.get("/lists/1", headerFields: [.ifNoneMatch: etag])
    #expect(again.status == .notModified && again.body.isEmpty)
    browser.post("/lists/1/items", [("text", "changed")])
    #expect(browser.get("/lists/1", headerFields: [.ifNoneMatch: etag]).status == .ok)
  }

  @Test func unknownAddressesListsAndItemsAre404PagesAndOtherMethods405() throws {
    let browser = try ApplicationHarness()
    for path in ["/nope", "/lists/99", "/lists/99/edit", "/lists/1/items/5/edit", "/lists/%2e%2e"] {
      let response = browser.get(path)
      #expect(response.status == .notFound, "\(path)")
      #expect(browser.text(response).contains("<!doctype html>"))
    }
    #expect(browser.post("/lists/99/items/1/toggle").status == .notFound)
    let put = browser.get("/lists/1", method: .put)
    #expect(put.status == .methodNotAllowed && put.headerFields[.allow] == "GET, HEAD, POST")
    #expect(browser.get("/lists/1", method: .head).status == .ok)
  }

  @Test func twoBrowsersOfOneVisitorKeepTheirOwnIndex() throws {
    let phone = try ApplicationHarness()
    phone.post("/lists", [("name", "Alpha")])
    let laptop = try phone.anotherBrowser()
    laptop.cookies["visitor"] = phone.cookies["visitor"]
    phone.get("/lists/2")
    laptop.get("/lists/1")
    #expect(phone.get("/").headerFields[.location] == "/lists/2")
    #expect(laptop.get("/").headerFields[.location] == "/lists/1")
  }

  @Test func anUnreadableFileIsKeptAsideAndTheVisitorIsTold() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "precious")])
    let path = try #require(browser.storedFiles().keys.first { $0.hasSuffix("Checklists.plist") })
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: "\(browser.data)/\(path)"))
    let response = browser.get("/lists")
    #expect(response.status == .internalServerError)
    #expect(browser.text(response).contains("could not be read"))
    #expect(browser.storedFiles().keys.contains { $0.contains("Checklists.plist.corrupt-") })
  }

  @Test func unreadableSettingsAreKeptAsideAndTheVisitorIsTold() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "precious")])
    browser.post("/settings", [("HideCheckedItems", "on")])
    let path = try #require(browser.storedFiles().keys.first { $0.hasSuffix("Preferences.plist") })
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: "\(browser.data)/\(path)"))
    let response = browser.get("/lists/1")
    #expect(response.status == .internalServerError)
    #expect(browser.text(response).contains("settings could not be read"))
    #expect(browser.storedFiles().keys.contains { $0.contains("Preferences.plist.corrupt-") })
    let next = browser.get("/lists/1")
    #expect(next.status == .ok && browser.text(next).contains("precious"))
  }

  @Test func aKeptPageIsNeverStaleAfterAChangeHereOrInAnotherProcess() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "first")])
    let before = browser.get("/lists/1")
    #expect(browser.get("/lists/1").body == before.body, "the same page again")
    // Another backend process on the same data directory, the same visitor.
    let otherProcess = try browser.anotherBrowser()
    otherProcess.cookies["visitor"] = browser.cookies["visitor"]
    otherProcess.post("/lists/1/items", [("text", "second")])
    let after = browser.text(browser.get("/lists/1"))
    #expect(after.contains(">first<") && after.contains(">second<"))
    browser.post("/lists/1/items/1/toggle")
    #expect(
      browser.text(browser.get("/lists/1")).contains(
        #"aria-pressed=true name=check value=0>first<"#))
    browser.post("/settings", [("HideCheckedItems", "on"), ("OpenLastList", "on")])
    #expect(!browser.text(browser.get("/lists/1")).contains(">first<"))
    // Another visitor never gets this visitor's page (their token is in it).
    let stranger = try browser.anotherBrowser()
    stranger.post("/lists/1/items", [("text", "theirs")])
    let theirs = stranger.text(stranger.get("/lists/1"))
    #expect(theirs.contains(">theirs<") && !theirs.contains(">second<"))
  }

  @Test func healthIsTheBareDynamicPage() throws {
    let browser = try ApplicationHarness()
    let response = browser.get("/health")
    #expect(response.status == .ok && browser.text(response) == "ok\n")
  }

  /// A load balancer sends no one to a host whose database is away.
  @Test func healthIsNotReadyWhileTheDocumentsCannotBeReached() throws {
    let directory = TemporaryDirectory("checklists-app")
    var configuration = ApplicationConfiguration(
      dataDirectory: directory.path, templatesDirectory: BuiltTool.packageRoot + "/Templates",
      publicDirectory: BuiltTool.packageRoot + "/Public", durable: false)
    configuration.isReady = { false }
    let application = try Application(configuration: configuration, logger: Logger(label: "test"))
    let response = application.respond(to: Request(method: .get, path: "/health"))
    #expect(response.status == .serviceUnavailable)
    #expect(response.headerFields[.retryAfter] == "2")
  }

  /// Before the application could start (its database away), every page is
  /// the unreachable store's `503` and `/health` is not ready.
  @Test func theStartingAnswerIs503UntilTheApplicationStarts() throws {
    let starting = try StartingAnswer(
      templatesDirectory: BuiltTool.packageRoot + "/Templates",
      publicDirectory: BuiltTool.packageRoot + "/Public")
    for path in ["/health", "/lists", "/lists/1", "/settings"] {
      let response = starting.respond(to: Request(method: .get, path: path))
      #expect(response.status == .serviceUnavailable, "\(path)")
      #expect(response.headerFields[.retryAfter] == "2", "\(path)")
    }
  }
}
