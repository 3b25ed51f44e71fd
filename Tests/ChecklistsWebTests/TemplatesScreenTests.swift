import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// Duplicate List, Save as Template, New List from a template and Delete
/// Template, as plain forms through `Application.respond(to:)`.
@Suite struct TemplatesScreenTests {
  static func listID(_ response: Response) throws -> Int {
    let location = try #require(response.headerFields[.location])
    return try #require(Int(location.split(separator: "/").last ?? ""))
  }

  @Test func duplicateOpensTheCopy() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Milk")])
    let edit = browser.text(browser.get("/lists/1/edit"))
    #expect(edit.contains(#"action="/lists/1/duplicate""#))
    #expect(edit.contains(#"action="/lists/1/save-as-template""#))
    let duplicated = browser.post("/lists/1/duplicate")
    #expect(duplicated.status == .seeOther)
    let copy = try Self.listID(duplicated)
    #expect(copy != 1)
    let page = browser.text(browser.get("/lists/\(copy)"))
    #expect(page.contains("List copy") && page.contains(">Milk</button>"))
    #expect(browser.post("/lists/99/duplicate").status == .notFound)
  }

  @Test func aTemplateIsOfferedOnNewListAndNeverShownAsAList() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Tent")])
    browser.post("/lists/1/items/1/toggle", [("check", "1")])
    #expect(!browser.text(browser.get("/lists/new")).contains(#"id="templates""#))
    let saved = browser.post("/lists/1/save-as-template")
    #expect(saved.status == .seeOther && saved.headerFields[.location] == "/lists/new#templates")
    let newList = browser.text(browser.get("/lists/new"))
    let action = try #require(
      newList.firstMatch(of: #/action="/templates/(\d+)/new-list"/#).map { String($0.output.1) })
    #expect(newList.contains(#"<span class="row-subtitle">1 item</span>"#))
    let allLists = browser.text(browser.get("/lists"))
    #expect(allLists.components(separatedBy: #"class="row-main""#).count == 2)

    let made = browser.post("/templates/\(action)/new-list")
    #expect(made.status == .seeOther)
    let id = try Self.listID(made)
    let page = browser.text(browser.get("/lists/\(id)"))
    #expect(page.contains(#"aria-pressed=false name=check value=1>Tent</button>"#))
    // The template is no list: its id opens nothing.
    #expect(browser.get("/lists/\(action)").status == .notFound)

    #expect(browser.post("/templates/\(action)/delete").status == .seeOther)
    #expect(browser.post("/templates/\(action)/delete").status == .seeOther)
    #expect(!browser.text(browser.get("/lists/new")).contains(#"id="templates""#))
    #expect(browser.post("/templates/\(action)/new-list").status == .notFound)
  }

  @Test func theTemplateLimitIsAClearRefusal() throws {
    let browser = try ApplicationHarness()
    for _ in 0..<Limits.maximumTemplates {
      #expect(browser.post("/lists/1/save-as-template").status == .seeOther)
    }
    let refused = browser.post("/lists/1/save-as-template")
    #expect(refused.status == .unprocessableContent)
    #expect(browser.text(refused).contains("You already have 50 templates"))
  }

  /// An edit link reaches its list's items and nothing else: no route
  /// under `/s/` copies a list or makes a template.
  @Test func anEditLinkCanNeitherDuplicateNorMakeATemplate() throws {
    let owner = try SharingTests.owner()
    let browser = owner.browser
    let editor = try SharingTests.share(browser, list: owner.groceries, "edit")
    let csrf = try SharingTests.formToken(browser, editor)
    let before = try SharingTests.model(owner)
    for path in [
      "/s/\(editor)/duplicate", "/s/\(editor)/save-as-template",
      "/s/\(editor)/templates/1/new-list",
    ] {
      let status = SharingTests.post(browser, path, csrf: csrf).status
      #expect(status == .notFound || status == .forbidden || status == .methodNotAllowed)
    }
    #expect(try SharingTests.model(owner) == before)
  }
}

/// Search through `Application.respond(to:)`: a plain GET form, the
/// matches marked, each result leading to its item.
@Suite struct SearchScreenTests {
  @Test func aSearchFindsCyrillicAndAccentedTextAndMarksIt() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Купить ёлку")])
    browser.post("/lists/1/items", [("text", "Crème <brûlée>")])
    browser.post("/lists/1/items/2/delete")
    #expect(browser.text(browser.get("/lists")).contains(#"action="/search""#))
    let empty = browser.text(browser.get("/search"))
    #expect(empty.contains(#"name="q""#) && !empty.contains("found"))
    let cyrillic = browser.text(browser.get("/search?q=%D0%95%D0%9B%D0%9A"))
    #expect(cyrillic.contains("1 found."))
    #expect(cyrillic.contains(#"href="/lists/1/items/1/edit""#))
    #expect(cyrillic.contains("Купить <mark>ёлк</mark>у"))
    let accented = browser.text(browser.get("/search?q=creme+BRULEE"))
    #expect(accented.contains("Nothing found."))
    let deleted = browser.text(browser.get("/search?q=BRULEE"))
    #expect(deleted.contains("Crème &lt;<mark>brûlée</mark>&gt;"))
    #expect(deleted.contains(#"href="/deleted""#) && deleted.contains("in Recently Deleted"))
  }

  /// The kept index follows every change: a search after an edit finds
  /// what the edit wrote, and no longer what it replaced.
  @Test func aSearchAfterAChangeSeesTheChange() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Apples")])
    #expect(browser.text(browser.get("/search?q=apples")).contains("1 found."))
    browser.post("/lists/1/items/1", [("text", "Pears"), ("dueDate", ""), ("notes", "Äpfel")])
    #expect(browser.text(browser.get("/search?q=pears")).contains("1 found."))
    let byNote = browser.text(browser.get("/search?q=APFEL"))
    #expect(byNote.contains("1 found.") && byNote.contains("<mark>Äpfel</mark>"))
    browser.post("/lists/1/items", [("text", "Apfelsaft")])
    #expect(browser.text(browser.get("/search?q=apfel")).contains("2 found."))
  }
}
