import Foundation
import TestSupport
import Testing

@testable import Storage

/// A returning browser's owner, answered from what its last request found
/// (`DeviceStore.resolveKept`): as `resolve` answers, and a browser signed
/// out is a new visitor at its very next request.
@Suite struct KnownBrowsersTests {
  let temporary = TemporaryDirectory("known-browsers")
  var data: String { temporary.path }
  let devices: DeviceStore
  let now = Date(timeIntervalSince1970: 1_750_000_000)

  init() {
    devices = DeviceStore(dataDirectory: temporary.path, durable: false)
  }

  /// A founding browser's token, its owner (with a devices file listing
  /// it) and a second browser linked to that owner.
  func ownerWithTwoBrowsers(settled: Bool = true) throws -> (
    founding: String, owner: VisitorDirectory, linked: String
  ) {
    let founding = browserToken()
    let owner = VisitorDirectory(dataDirectory: data, visitorID: founding)
    let (code, _) = try devices.createCode(
      for: owner, token: founding, name: "Firefox on Linux", now: now)
    let linked = browserToken()
    _ = try devices.redeem(code, newToken: linked, name: "Safari on iOS", now: now)
    // Older than the identity a look-up trusts (`DocumentVersion.settleNanoseconds`).
    if settled { Thread.sleep(forTimeInterval: 0.03) }
    return (founding, owner, linked)
  }

  func browserID(_ token: String, of owner: VisitorDirectory) throws -> Int? {
    try devices.devices(of: owner)?.browser(digest: SecretDigest.of(token))?.id
  }

  @Test func aKeptAnswerIsGivenWhileTheOwnersDirectoryIsUnchanged() throws {
    let (_, owner, linked) = try ownerWithTwoBrowsers()
    let expected = DeviceStore.Resolution.owner(owner, browserID: try browserID(linked, of: owner))
    #expect(try devices.resolveKept(token: linked, now: Date()) == expected)
    #expect(try devices.resolveKept(token: linked, now: Date()) == expected)
    // The index entry gone behind the store's back: a look-up would read
    // this browser as the founding one of a directory of its own, so only
    // a kept answer still names the owner.
    try FileManager.default.removeItem(
      atPath: devices.browserIndex.entryPath(digest: SecretDigest.of(linked)))
    #expect(try devices.resolveKept(token: linked, now: Date()) == expected)
    #expect(try devices.resolve(token: linked) != expected)
  }

  @Test func aChangeOfTheOwnersListsKeepsTheAnswer() throws {
    // Every POST rewrites the owner's checklists, which moves their
    // directory's identity; the browser's owner stays known all the same.
    let (_, owner, linked) = try ownerWithTwoBrowsers()
    let expected = DeviceStore.Resolution.owner(owner, browserID: try browserID(linked, of: owner))
    for _ in 0..<2 { #expect(try devices.resolveKept(token: linked, now: Date()) == expected) }
    let before = devices.documents.identity(ofDirectory: owner.path)
    try devices.documents.write(
      Data("lists".utf8), to: "\(owner.path)/Checklists.plist", durable: false)
    #expect(devices.documents.identity(ofDirectory: owner.path) != before)
    // Only a kept answer still names the owner once the index entry is gone.
    try FileManager.default.removeItem(
      atPath: devices.browserIndex.entryPath(digest: SecretDigest.of(linked)))
    #expect(try devices.resolveKept(token: linked, now: Date()) == expected)
  }

  @Test func aFoundingBrowserIsListedOnceItsOwnerHasADevicesFile() throws {
    // Kept while the owner had no devices file (no browser ID), then the
    // file made by a link code: the next request reads it.
    let founding = browserToken()
    let owner = VisitorDirectory(dataDirectory: data, visitorID: founding)
    try devices.documents.prepareDirectory(owner.path, durable: false)
    for _ in 0..<3 {
      #expect(
        try devices.resolveKept(token: founding, now: Date()) == .owner(owner, browserID: nil))
    }
    _ = try devices.createCode(for: owner, token: founding, name: "Firefox on Linux", now: now)
    Thread.sleep(forTimeInterval: 0.03)  // older than a look-up trusts
    let id = try #require(try browserID(founding, of: owner))
    #expect(try devices.resolveKept(token: founding, now: Date()) == .owner(owner, browserID: id))
  }

  @Test func aLinkedBrowserSignedOutIsANewVisitorAtItsNextRequest() throws {
    let (founding, owner, linked) = try ownerWithTwoBrowsers()
    for _ in 0..<3 { #expect(try devices.resolveKept(token: linked, now: Date()) != .signedOut) }
    let id = try #require(try browserID(linked, of: owner))
    #expect(try devices.signOut(browser: id, of: owner, askedBy: founding, now: now))
    #expect(try devices.resolveKept(token: linked, now: Date()) == .signedOut)
    #expect(try devices.resolveKept(token: founding, now: Date()) != .signedOut)
  }

  @Test func aFoundingBrowserSignedOutIsANewVisitorAtItsNextRequest() throws {
    let (founding, owner, linked) = try ownerWithTwoBrowsers()
    for _ in 0..<3 {
      #expect(try devices.resolveKept(token: founding, now: Date()) != .signedOut)
    }
    let id = try #require(try browserID(founding, of: owner))
    // A browser may sign out one linked before it a day after its own link.
    let later = now.addingTimeInterval(Devices.newBrowserWait + 60)
    #expect(try devices.signOut(browser: id, of: owner, askedBy: linked, now: later))
    #expect(try devices.resolveKept(token: founding, now: Date()) == .signedOut)
  }

  @Test func aDirectoryChangedJustNowIsNotTrusted() throws {
    // Looked up twice right after the link, then signed out at once: on a
    // file system whose clock ticks coarsely the sign-out may leave the
    // directory's time as the link left it, so an answer kept with that
    // identity would outlive the sign-out. It is never kept that young.
    let (founding, owner, linked) = try ownerWithTwoBrowsers(settled: false)
    for _ in 0..<2 { #expect(try devices.resolveKept(token: linked, now: Date()) != .signedOut) }
    let id = try #require(try browserID(linked, of: owner))
    #expect(try devices.signOut(browser: id, of: owner, askedBy: founding, now: now))
    #expect(try devices.resolveKept(token: linked, now: Date()) == .signedOut)
  }
}
