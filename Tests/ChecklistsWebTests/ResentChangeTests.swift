import Foundation
import HTTPTypes
import Testing
import WebTestSupport

/// A form sent twice changes once. Browsers re-send a post whose answer they
/// did not get (the enhancement script's fallback after a failed `fetch`, a
/// reload after a timeout) although the first may have been applied: a
/// re-sent add must not duplicate the item, a re-sent toggle must not flip it
/// back, in this process or in another one after a restart.
@Suite struct ResentChangeTests {
  static func field(_ name: String, in page: String) -> String? {
    let pattern = #"name="\#(name)" value="([0-9]+)""#
    guard let range = page.range(of: pattern, options: .regularExpression) else { return nil }
    return String(page[range].dropFirst(#"name="\#(name)" value=""#.count).dropLast())
  }

  static func count(_ text: String, in page: String) -> Int {
    page.components(separatedBy: ">\(text)</button>").count - 1
  }

  /// The same browser after the backend restarted: same data, same cookies, no caches.
  static func restarted(_ browser: ApplicationHarness) throws -> ApplicationHarness {
    let later = try browser.anotherBrowser()
    later.cookies = browser.cookies
    return later
  }

  @Test func aResentAddAddsOneItem() throws {
    let browser = try ApplicationHarness()
    let page = browser.text(browser.get("/lists/1"))
    let nonce = try #require(Self.field("nonce", in: page))
    let token = browser.csrf()
    let form = [("text", "milk"), ("nonce", nonce)]

    let first = browser.post("/lists/1/items", form, token: token)
    #expect(first.status == .seeOther && first.headerFields[.location] == "/lists/1")
    let again = browser.post("/lists/1/items", form, token: token)
    #expect(
      again.status == .seeOther && again.headerFields[.location] == "/lists/1", "the same answer")
    let later = try Self.restarted(browser)
    #expect(later.post("/lists/1/items", form, token: token).status == .seeOther)
    let after = later.text(later.get("/lists/1"))
    #expect(Self.count("milk", in: after) == 1)

    // A second milk on purpose comes from the page rendered after the first.
    let fresh = try #require(Self.field("nonce", in: after))
    #expect(fresh != nonce)
    later.post("/lists/1/items", [("text", "milk"), ("nonce", fresh)], token: token)
    #expect(Self.count("milk", in: later.text(later.get("/lists/1"))) == 2)
  }

  @Test func aStaleFormStillAddsOtherText() throws {
    let browser = try ApplicationHarness()
    let nonce = try #require(Self.field("nonce", in: browser.text(browser.get("/lists/1"))))
    // Two tabs rendered at the same moment, each adding its own item.
    browser.post("/lists/1/items", [("text", "eggs"), ("nonce", nonce)])
    browser.post("/lists/1/items", [("text", "flour"), ("nonce", nonce)])
    let page = browser.text(browser.get("/lists/1"))
    #expect(Self.count("eggs", in: page) == 1 && Self.count("flour", in: page) == 1)
  }

  @Test func aResentToggleLeavesTheItemAsAsked() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "bread")])
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains(#"aria-pressed=false name=check value=1>bread<"#))
    let token = browser.csrf()

    for _ in 0..<2 {
      let response = browser.post("/lists/1/items/1/toggle", [("check", "1")], token: token)
      #expect(response.status == .seeOther && response.headerFields[.location] == "/lists/1")
    }
    let later = try Self.restarted(browser)
    later.post("/lists/1/items/1/toggle", [("check", "1")], token: token)
    #expect(
      later.text(later.get("/lists/1")).contains(
        #"aria-pressed=true name=check value=0>bread<"#))

    for _ in 0..<2 { later.post("/lists/1/items/1/toggle", [("check", "0")], token: token) }
    #expect(later.text(later.get("/lists/1")).contains(#"aria-pressed=false"#))
  }

  /// The items of list 1 in the order shown.
  static func items(_ browser: ApplicationHarness) -> [String] {
    browser.text(browser.get("/lists/1")).matches(of: /name=check value=[01]>([^<]*)</).map {
      String($0.output.1)
    }
  }

  /// A change made offline is sent again when its answer was lost
  /// (Public/app.js keeps it queued until answered): a move names the item
  /// it goes next to, a delete finds its earlier deletion, an edit of a
  /// list sets its name and icon, so a repeat changes nothing.
  @Test func aResentMoveDeleteOrListEditChangesOnce() throws {
    let browser = try ApplicationHarness()
    for text in ["tea", "rice", "salt"] { browser.post("/lists/1/items", [("text", text)]) }
    let token = browser.csrf()

    for _ in 0..<2 {
      let moved = browser.post("/lists/1/items/3/move", [("before", "1")], token: token)
      #expect(moved.status == .seeOther && moved.headerFields[.location] == "/lists/1")
    }
    #expect(Self.items(browser) == ["salt", "tea", "rice"])

    let deleted = browser.post("/lists/1/items/2/delete", token: token)
    let later = try Self.restarted(browser)
    let again = later.post("/lists/1/items/2/delete", token: token)
    #expect(deleted.status == .seeOther && again.status == .seeOther)
    #expect(again.headerFields[.location] == deleted.headerFields[.location], "the same Undo")
    #expect(Self.items(later) == ["salt", "tea"])
    let bin = later.text(later.get("/deleted"))
    #expect(bin.components(separatedBy: #"<span class="row-title">rice</span>"#).count - 1 == 1)
    #expect(bin.components(separatedBy: #"action="/deleted/"#).count - 1 == 1, "one deletion")

    for _ in 0..<2 {
      let saved = later.post("/lists/1", [("name", "Shop"), ("icon", "groceries")], token: token)
      #expect(saved.status == .seeOther && saved.headerFields[.location] == "/lists/1")
    }
    let page = later.text(later.get("/lists/1"))
    #expect(page.contains(#"<span class="list-icon i-groceries"></span>Shop</h1>"#))
    #expect(Self.items(later) == ["salt", "tea"])
  }

  @Test func aToggleWithoutTheFieldFlipsAndAMalformedOneIsRefused() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "jam")])
    // A page rendered before toggles carried their state: its toggle still flips.
    #expect(browser.post("/lists/1/items/1/toggle").status == .seeOther)
    #expect(browser.text(browser.get("/lists/1")).contains(#"aria-pressed=true"#))
    #expect(browser.post("/lists/1/items/1/toggle", [("check", "yes")]).status == .badRequest)
    #expect(
      browser.post("/lists/1/items", [("text", "tea"), ("nonce", "-1")]).status == .badRequest)
    #expect(browser.text(browser.get("/lists/1")).contains(#"aria-pressed=true"#))
    #expect(Self.count("tea", in: browser.text(browser.get("/lists/1"))) == 0)
  }
}
