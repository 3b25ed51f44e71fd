import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// What an edit link's holder can do to the rest of the owner's data: a
/// link changes its own list within its own budget, and never evicts,
/// purges or blocks anything outside it (SPEC §8).
@Suite struct SharedListBudgetTests {
  /// 1,000 characters of 12 bytes (an ideograph and three combining marks
  /// of 3 bytes): the largest item text there can be.
  static let largestText = String(repeating: "中\u{20D0}\u{20D0}\u{20D0}", count: 1000)

  /// The owner of `SharingTests.owner()`, who also deleted list `Taxes`.
  static func ownerWithTaxesDeleted() throws -> SharingTests.Owner {
    let owner = try SharingTests.owner()
    let taxes = try SharingTests.createList(owner.browser, "Taxes")
    #expect(owner.browser.post("/lists/\(taxes)/items", [("text", "Receipts")]).status == 303)
    #expect(owner.browser.post("/lists/\(taxes)/delete").status == 303)
    return owner
  }

  static func hasTaxes(_ owner: SharingTests.Owner) throws -> Bool {
    try SharingTests.model(owner).deletions.contains { $0.list?.name == "Taxes" }
  }

  /// Adds `text` through the link as its page's form does.
  static func add(_ browser: ApplicationHarness, _ token: String, _ text: String) throws
    -> Response
  {
    let page = browser.text(SharingTests.get(browser, "/s/\(token)"))
    let nonce = try #require(page.firstMatch(of: #/name="nonce" value="(\d+)"/#)?.output.1)
    let csrf = try #require(page.firstMatch(of: #/name="csrf" value="([0-9a-f]{64})"/#)?.output.1)
    return SharingTests.post(
      browser, "/s/\(token)/items", [("text", text), ("nonce", String(nonce))],
      csrf: String(csrf))
  }

  @Test func addingAndDeletingThroughALink110TimesKeepsTheOwnersDeletions() throws {
    let owner = try Self.ownerWithTaxesDeleted()
    let browser = owner.browser
    let token = try SharingTests.share(browser, list: owner.groceries, "edit")
    let csrf = try SharingTests.formToken(browser, token)
    for round in 0..<110 {
      #expect(try Self.add(browser, token, "scrap \(round)").status == 303)
      let added = try #require(SharingTests.model(owner).checklist(id: owner.groceries)?.items.last)
      #expect(
        SharingTests.post(browser, "/s/\(token)/items/\(added.id)/delete", csrf: csrf).status
          == 303)
    }
    #expect(try Self.hasTaxes(owner))
    let deletions = try SharingTests.model(owner).deletions
    #expect(deletions.filter(\.throughLink).count == Limits.maximumLinkDeletionsPerList)
    #expect(browser.text(browser.get("/deleted")).contains("Taxes"))
  }

  @Test func aLinkGrowsItsListOnlyToItsShareAndTheOwnerKeepsRoom() throws {
    let owner = try Self.ownerWithTaxesDeleted()
    let browser = owner.browser
    let groceries = try SharingTests.share(browser, list: owner.groceries, "edit")
    var refused: Response?
    var added = 0
    while added < 200, refused == nil {
      let answer = try Self.add(browser, groceries, String(Self.largestText.dropLast(added % 50)))
      if answer.status == 303 { added += 1 } else { refused = answer }
    }
    let answer = try #require(refused, "the link filled the owner's 2 MiB")
    #expect(answer.status == .unprocessableContent)
    let page = browser.text(answer)
    #expect(page.contains("This shared list is full") && page.contains("Nothing was changed"))
    #expect(page.contains(#"href="/s/\#(groceries)""#))
    // One list with an edit link may take half of the owner's 2 MiB.
    let share = Limits.maximumBytesThroughLinks
    #expect(added * 11_000 <= share && (added + 2) * 12_200 > share, "\(added) added")
    // A refused add changes nothing; the owner's deletions are all there.
    let before = try SharingTests.model(owner)
    #expect(try Self.add(browser, groceries, Self.largestText).status == .unprocessableContent)
    #expect(try SharingTests.model(owner) == before)
    #expect(try Self.hasTaxes(owner))
    // The owner is not blocked.
    #expect(browser.post("/lists/\(owner.work)/items", [("text", Self.largestText)]).status == 303)
    // Another list's link has its own share: the first cannot block it.
    let work = try SharingTests.share(browser, list: owner.work, "edit")
    #expect(try Self.add(browser, work, Self.largestText).status == 303)
    // Deleting through a full list's link always works.
    let csrf = try SharingTests.formToken(browser, groceries)
    let last = try #require(
      try SharingTests.model(owner).checklist(id: owner.groceries)?.items.last)
    #expect(
      SharingTests.post(browser, "/s/\(groceries)/items/\(last.id)/delete", csrf: csrf).status
        == 303)
    #expect(try Self.hasTaxes(owner))
  }
}
