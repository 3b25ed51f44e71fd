import Foundation

/// The ways to an owner's lists that need no browser of theirs: share
/// links and the calendar address. Signing out a browser may replace
/// them (it may have kept them), and the owner's last browser goes only
/// once they are ended, since nobody would be left to end them.
package struct OutsideAccess: Sendable {
  package let shares: ShareLinks
  package let calendars: CalendarAddresses

  package init(shares: ShareLinks, calendars: CalendarAddresses) {
    self.shares = shares
    self.calendars = calendars
  }

  /// What reaches an owner's lists from outside.
  package struct Summary: Sendable, Equatable {
    /// Live share links, of every list (those Recently deleted holds too).
    package var shareLinks: Int
    package var calendarAddress: Bool

    package init(shareLinks: Int, calendarAddress: Bool) {
      self.shareLinks = shareLinks
      self.calendarAddress = calendarAddress
    }

    package var isEmpty: Bool { shareLinks == 0 && !calendarAddress }
  }

  /// What reaches the owner's lists now.
  package func summary(of owner: VisitorDirectory) throws -> Summary {
    let links = try shares.shares(of: owner)?.links.count ?? 0
    let calendar = try StoreError.reporting { try calendars.secret(of: owner) != nil }
    return Summary(shareLinks: links, calendarAddress: calendar)
  }

  /// Ends every share link and the calendar address: each is `404` from
  /// now on.
  package func endAll(of owner: VisitorDirectory) throws {
    try shares.revokeAll(of: owner)
    try StoreError.reporting { try calendars.remove(for: owner) }
  }

  /// Replaces the calendar address (when `calendar` and the owner has one)
  /// and every share link (when `shareLinks`) by new ones; the old ones
  /// are `404` from now on. `secret` derives the new links' tokens.
  package func replace(
    calendar: Bool, shareLinks: Bool, of owner: VisitorDirectory, secret: OwnerSecret?
  ) throws {
    if calendar, try StoreError.reporting({ try calendars.secret(of: owner) }) != nil {
      _ = try StoreError.reporting { try calendars.replace(for: owner) }
    }
    if shareLinks {
      if let secret {
        try shares.replaceAll(of: owner, secret: secret)
      } else {
        // Without the owner's secret no new token can be made: the old
        // links still must not work.
        try shares.revokeAll(of: owner)
      }
    }
  }
}
