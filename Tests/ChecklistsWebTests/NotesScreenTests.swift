import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// An item's note through the item form (the owner's and an edit link's),
/// shown under the item on the list page and on a shared page.
@Suite struct NotesScreenTests {
  static let note = "Gate code <4711> & \"bell\"\nSecond floor, left"
  static let escaped = "Gate code &lt;4711&gt; &amp; &quot;bell&quot;\nSecond floor, left"

  @Test func theItemFormSavesANoteAndTheListShowsItUnderTheItem() throws {
    let browser = try ApplicationHarness()
    #expect(browser.post("/lists/1/items", [("text", "Visit")]).status == .seeOther)
    let form = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(form.contains(#"<textarea id="item-notes" name="notes""#))
    #expect(form.contains(#"<label for="item-notes">Notes</label>"#))
    let saved = browser.post(
      "/lists/1/items/1",
      [
        ("text", "Visit"), ("dueDate", ""),
        ("notes", "\r\n" + Self.note.replacing("\n", with: "\r\n") + "  \r\n"),
      ])
    #expect(saved.status == .seeOther)
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains(#"<p class=notes>\#(Self.escaped)</p>"#))
    let again = browser.text(browser.get("/lists/1/items/1/edit"))
    #expect(again.contains(">\(Self.escaped)</textarea>"))
  }

  @Test func aFormWithoutTheNoteKeepsItAndAnEmptyOneClearsIt() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Visit")])
    browser.post("/lists/1/items/1", [("text", "Visit"), ("dueDate", ""), ("notes", "kept")])
    browser.post("/lists/1/items/1", [("text", "Visit!"), ("dueDate", "")])
    #expect(browser.text(browser.get("/lists/1")).contains(#"<p class=notes>kept</p>"#))
    browser.post("/lists/1/items/1", [("text", "Visit!"), ("dueDate", ""), ("notes", "")])
    #expect(!browser.text(browser.get("/lists/1")).contains(#"class=notes"#))
  }

  @Test func aNoteTooLongIs422WithTheFormAsTyped() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "Visit")])
    let long = String(repeating: "ж", count: Limits.maximumNoteLength + 1)
    let refused = browser.post(
      "/lists/1/items/1", [("text", "Visit changed"), ("dueDate", ""), ("notes", long)])
    #expect(refused.status == .unprocessableContent)
    let page = browser.text(refused)
    #expect(page.contains("That note is too long: at most 4000 characters, please."))
    #expect(page.contains(">\(long)</textarea>"))
    #expect(page.contains(#"aria-invalid="true">"# + long))
    #expect(page.contains(#"value="Visit changed""#))
    // Nothing was stored.
    #expect(browser.text(browser.get("/lists/1")).contains(">Visit</button>"))
  }

  @Test func anEditLinkSavesANoteAndEveryLinkShowsIt() throws {
    let owner = try SharingTests.owner()
    let browser = owner.browser
    let editor = try SharingTests.share(browser, list: owner.groceries, "edit")
    let reader = try SharingTests.share(browser, list: owner.groceries, "read-only")
    let csrf = try SharingTests.formToken(browser, editor)
    let form = browser.text(SharingTests.get(browser, "/s/\(editor)/items/\(owner.milk)/edit"))
    #expect(form.contains(#"<textarea id="item-notes" name="notes""#))
    let saved = SharingTests.post(
      browser, "/s/\(editor)/items/\(owner.milk)",
      [("text", "Milk"), ("dueDate", ""), ("dueDateZone", "UTC"), ("notes", Self.note)],
      csrf: csrf)
    #expect(saved.status == 303)
    let milk = try #require(
      try SharingTests.model(owner).checklist(id: owner.groceries)?.item(id: owner.milk))
    #expect(milk.notes == Self.note)
    for token in [editor, reader] {
      #expect(
        browser.text(SharingTests.get(browser, "/s/\(token)")).contains(
          #"<p class=notes>\#(Self.escaped)</p>"#))
    }
    let refused = SharingTests.post(
      browser, "/s/\(editor)/items/\(owner.milk)",
      [
        ("text", "Milk"), ("dueDate", ""), ("dueDateZone", "UTC"),
        ("notes", String(repeating: "x", count: Limits.maximumNoteLength + 1)),
      ], csrf: csrf)
    #expect(refused.status == 422)
    #expect(browser.text(refused).contains("That note is too long"))
  }

  /// Notes are the cheapest way for a link's holder to grow a list (a note
  /// of `&` stores five bytes a character): they stop at the list's share
  /// of the owner's room, and the owner's other list is untouched.
  @Test func anEditLinksNotesStopAtItsListsShare() throws {
    let owner = try SharingTests.owner()
    let browser = owner.browser
    let editor = try SharingTests.share(browser, list: owner.groceries, "edit")
    let csrf = try SharingTests.formToken(browser, editor)
    let work = try SharingTests.model(owner).checklist(id: owner.work)
    let heavy = String(repeating: "&", count: Limits.maximumNoteLength)
    var refusal: Response?
    for index in 0..<120 where refusal == nil {
      let page = browser.text(SharingTests.get(browser, "/s/\(editor)"))
      let nonce = try #require(
        page.firstMatch(of: #/name="nonce" value="(\d+)"/#).map { String($0.output.1) })
      let added = SharingTests.post(
        browser, "/s/\(editor)/items", [("text", "item \(index)"), ("nonce", nonce)], csrf: csrf)
      if added.status != 303 {
        refusal = added
        break
      }
      let model = try SharingTests.model(owner)
      let id = try #require(model.checklist(id: owner.groceries)?.items.last?.id)
      let saved = SharingTests.post(
        browser, "/s/\(editor)/items/\(id)",
        [("text", "item \(index)"), ("dueDate", ""), ("dueDateZone", "UTC"), ("notes", heavy)],
        csrf: csrf)
      if saved.status != 303 { refusal = saved }
    }
    let refused = try #require(refusal)
    #expect(refused.status == 422)
    #expect(browser.text(refused).contains("This shared list is full"))
    let model = try SharingTests.model(owner)
    #expect(model.checklist(id: owner.work) == work)
    let footprint = try #require(ListFootprint.bytes(ofList: owner.groceries, in: model))
    #expect(footprint <= Limits.maximumBytesThroughLinks)
  }
}

/// The calendar feed's event says the item's note after its list's name.
@Suite struct NotesFeedTests {
  @Test func anEventsDescriptionCarriesTheNote() throws {
    var model = DataModel()
    let list = try model.addList(name: "Home", icon: .none)
    let due = Date(timeIntervalSince1970: 2_000_000_000)
    for (text, notes) in [("Boiler", "Code 4711; ring twice\nSecond floor"), ("Plain", "")] {
      let id = try model.addItem(text: text, toList: list)
      try model.editItem(
        id: id, inList: list, text: text, dueDate: due, shouldRemind: true, notes: notes)
    }
    let feed = CalendarFeed(
      model: model, visitorKey: "key", now: Date(timeIntervalSince1970: 1_900_000_000),
      storedAt: 0)
    let text = String(decoding: feed.render(), as: UTF8.self).replacing("\r\n ", with: "")
    #expect(
      text.contains(
        "DESCRIPTION:Due in the list Home\\n\\nCode 4711\\; ring twice\\nSecond floor\r\n"))
    #expect(text.contains("DESCRIPTION:Due in the list Home\r\n"))
  }
}
