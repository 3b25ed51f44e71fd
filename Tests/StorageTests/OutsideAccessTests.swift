import FileSystem
import Foundation
import Storage
import TestSupport
import Testing

/// What reaches an owner's lists without a browser (share links and the
/// calendar address): counted, ended all at once when the last browser
/// goes, and replaced when a browser that saw them is signed out.
@Suite struct OutsideAccessTests {
  let temporary = TemporaryDirectory("outside-access")
  var data: String { temporary.path }
  var outside: OutsideAccess {
    OutsideAccess(
      shares: ShareLinks(dataDirectory: data, durable: false),
      calendars: CalendarAddresses(dataDirectory: data, durable: false))
  }
  let secret = OwnerSecret.random()

  /// An owner with a read-only and an edit link to list 1, an edit link
  /// to list 2, and a calendar address.
  func reachedOwner() throws -> (VisitorDirectory, [ShareToken], CalendarSecret) {
    let owner = VisitorDirectory(dataDirectory: data, visitorID: "owner")
    let tokens = try [(1, ShareKind.readOnly), (1, .edit), (2, .edit)].map { list, kind in
      try outside.shares.create(kind, list: list, for: owner, secret: secret, now: Date())
    }
    return (owner, tokens, try outside.calendars.create(for: owner))
  }

  @Test func endAllEndsEveryLinkAndTheAddress() throws {
    let (owner, tokens, calendar) = try reachedOwner()
    #expect(try outside.summary(of: owner) == .init(shareLinks: 3, calendarAddress: true))
    try outside.endAll(of: owner)
    #expect(try outside.summary(of: owner).isEmpty)
    for token in tokens { #expect(try outside.shares.access(presenting: token.text) == nil) }
    #expect(try outside.calendars.visitor(presenting: calendar.text) == nil)
    #expect(outside.shares.entries().isEmpty && outside.calendars.entries().isEmpty)
    // Again: nothing to end, nothing fails.
    try outside.endAll(of: owner)
  }

  @Test func replaceGivesNewTokensForTheSameListsAndKinds() throws {
    let (owner, tokens, calendar) = try reachedOwner()
    try outside.replace(calendar: true, shareLinks: true, of: owner, secret: secret)
    for token in tokens { #expect(try outside.shares.access(presenting: token.text) == nil) }
    #expect(try outside.calendars.visitor(presenting: calendar.text) == nil)
    let newCalendar = try #require(try outside.calendars.secret(of: owner))
    #expect(try outside.calendars.visitor(presenting: newCalendar.text) == owner)
    for list in [1, 2] {
      let links = try outside.shares.links(of: owner, list: list, secret: secret)
      for (kind, shown) in links {
        let token = try #require(shown.token)
        let access = try #require(try outside.shares.access(presenting: token.text))
        #expect(access.listID == list && access.kind == kind)
      }
    }
    #expect(try outside.summary(of: owner) == .init(shareLinks: 3, calendarAddress: true))
    #expect(outside.shares.entries().count == 3 && outside.calendars.entries().count == 1)
    // Only what is asked for.
    try outside.replace(calendar: true, shareLinks: false, of: owner, secret: secret)
    #expect(try outside.calendars.secret(of: owner) != newCalendar)
    let kept = try outside.shares.links(of: owner, list: 2, secret: secret)[.edit]?.token
    #expect(try outside.shares.access(presenting: try #require(kept).text) != nil)
  }
}
