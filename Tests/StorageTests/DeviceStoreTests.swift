import Documents
import FileSystem
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Owners and their browsers: founding browsers, link codes made and
/// redeemed, browsers signed out, the owner's secret, and what the files
/// keep of all of it.
@Suite struct DeviceStoreTests {
  let temporary = TemporaryDirectory("device-store")
  var data: String { temporary.path }
  let devices: DeviceStore
  let now = Date(timeIntervalSince1970: 1_750_000_000)

  init() {
    devices = DeviceStore(dataDirectory: temporary.path, durable: false)
  }

  func owner(of token: String) -> VisitorDirectory {
    VisitorDirectory(dataDirectory: data, visitorID: token)
  }

  /// A founding browser and the owner it founded.
  struct Founded {
    let token: String
    let owner: VisitorDirectory
  }

  func founded() -> Founded {
    let token = browserToken()
    return Founded(token: token, owner: owner(of: token))
  }

  /// A new browser linked to `founded`'s owner by a code its founding
  /// browser made; its token.
  func link(_ founded: Founded, by token: String? = nil, at time: Date? = nil) throws -> String {
    let (code, _) = try devices.createCode(
      for: founded.owner, token: token ?? founded.token, name: "Firefox on Linux",
      now: time ?? now)
    let linked = browserToken()
    #expect(
      try devices.redeem(code, newToken: linked, name: "Safari on iOS", now: time ?? now)
        == founded.owner)
    return linked
  }

  func browserID(_ token: String, of owner: VisitorDirectory) throws -> Int {
    try #require(try devicesOnDisk(of: owner)?.browser(digest: SecretDigest.of(token))).id
  }

  // MARK: Founding browsers

  @Test func aFoundingBrowserActsForItsOwnDirectoryWithNoFile() throws {
    let first = founded()
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: nil))
    #expect(try filesUnder(data).isEmpty, "a look-up writes nothing")
    // Still so once the owner has lists: today's visitors keep working.
    try makeStore(data).update(first.owner, initial: storedOrFirstRun) { _ in }
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: nil))
    #expect(try devices.devices(of: first.owner) == nil)
    #expect(!FileManager.default.fileExists(atPath: DeviceStore.path(of: first.owner)))
    #expect(try devices.existingSecret(of: first.owner, token: first.token) == nil)
  }

  // MARK: Link codes

  @Test func aRedeemedCodeLinksANewBrowserWithItsOwnID() throws {
    let first = founded()
    let (code, expires) = try devices.createCode(
      for: first.owner, token: first.token, name: "Firefox on Linux", now: now)
    #expect(expires == now.addingTimeInterval(15 * 60))
    // The first code lists the founding browser.
    var stored = try #require(try devicesOnDisk(of: first.owner))
    #expect(stored.browsers.map(\.id) == [1])
    #expect(stored.browsers.first?.digest == first.owner.key)
    #expect(stored.code?.digest == code.digest)
    #expect(try devices.codeIndex.owner(ofDigest: code.digest) == first.owner.key)
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: 1))

    let second = browserToken()
    let later = now.addingTimeInterval(60)
    #expect(
      try devices.redeem(code, newToken: second, name: "Safari on iOS", now: later) == first.owner)
    #expect(try devices.resolve(token: second) == .owner(first.owner, browserID: 2))
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: 1))
    stored = try #require(try devicesOnDisk(of: first.owner))
    #expect(stored.code == nil)
    let linked = try #require(stored.browser(digest: SecretDigest.of(second)))
    #expect(linked.name == "Safari on iOS")
    #expect(linked.firstSeen == later && linked.lastSeen == later)
    #expect(try devices.browserIndex.owner(ofDigest: SecretDigest.of(second)) == first.owner.key)
    #expect(try devices.codeIndex.owner(ofDigest: code.digest) == nil, "the spent code's entry")
    // The linked browser has no directory of its own.
    #expect(!FileManager.default.fileExists(atPath: owner(of: second).path))
  }

  @Test func aCodeWorksOnce() throws {
    let first = founded()
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let second = browserToken()
    _ = try devices.redeem(code, newToken: second, name: "B", now: now)
    let third = browserToken()
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(code, newToken: third, name: "C", now: now)
    }
    #expect(try devices.resolve(token: third) == .owner(owner(of: third), browserID: nil))
    #expect(try devicesOnDisk(of: first.owner)?.browsers.count == 2)
    #expect(try devices.browserIndex.owner(ofDigest: SecretDigest.of(third)) == nil)
  }

  /// Typed back from its shown form or its link, a code is the same code.
  @Test func aCodeIsRedeemedAsTypedOrAsItsLinkCarriesIt() throws {
    let first = founded()
    for form in [\LinkCode.grouped, \LinkCode.inLink] {
      let (code, _) = try devices.createCode(
        for: first.owner, token: first.token, name: "A", now: now)
      let typed = try #require(LinkCode(typed: code[keyPath: form].lowercased()))
      let token = browserToken()
      #expect(try devices.redeem(typed, newToken: token, name: "B", now: now) == first.owner)
      #expect(try devices.resolve(token: token) != .signedOut)
    }
  }

  @Test func aCodeExpiresAfterFifteenMinutes() throws {
    let first = founded()
    var (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let late = browserToken()
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(code, newToken: late, name: "B", now: now.addingTimeInterval(15 * 60))
    }
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(code, newToken: late, name: "B", now: now.addingTimeInterval(86_400))
    }
    #expect(try devices.resolve(token: late) == .owner(owner(of: late), browserID: nil))
    // A second before it expires, a new one works.
    (code, _) = try devices.createCode(for: first.owner, token: first.token, name: "A", now: now)
    let inTime = browserToken()
    _ = try devices.redeem(code, newToken: inTime, name: "B", now: now.addingTimeInterval(899))
    #expect(try devices.resolve(token: inTime) == .owner(first.owner, browserID: 2))
  }

  @Test func aNewerCodeReplacesTheOlder() throws {
    let first = founded()
    let (old, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let (new, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    #expect(old != new)
    #expect(devices.codeIndex.entries().map(\.digest) == [new.digest], "the old code's entry")
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(old, newToken: browserToken(), name: "B", now: now)
    }
    _ = try devices.redeem(new, newToken: browserToken(), name: "B", now: now)
  }

  @Test func wrongCodesAreRefusedAndChangeNothing() throws {
    let first = founded()
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let before = try filesUnder(data)
    var generator = SeededGenerator(seed: 14)
    // Codes of the right form that are nobody's.
    for _ in 0..<20 {
      let guess = LinkCode.random(using: &generator)
      #expect(throws: DeviceStore.Refusal.invalidCode) {
        try devices.redeem(guess, newToken: browserToken(), name: "B", now: now)
      }
    }
    // One character off.
    var wrong = Array(code.canonical)
    wrong[27] = wrong[27] == "0" ? "1" : "0"
    let nearMiss = try #require(LinkCode(typed: String(wrong)))
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(nearMiss, newToken: browserToken(), name: "B", now: now)
    }
    // An index entry that leads a guess to the owner does not make it theirs.
    let planted = LinkCode.random(using: &generator)
    try devices.codeIndex.add(digest: planted.digest, leadingTo: first.owner.key)
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(planted, newToken: browserToken(), name: "B", now: now)
    }
    try devices.codeIndex.remove(digest: planted.digest, ifLeadingTo: first.owner.key)
    #expect(try filesUnder(data) == before, "refused codes changed no file")
    _ = try devices.redeem(code, newToken: browserToken(), name: "B", now: now)
  }

  /// The code of an owner whose directory is gone (pruned) is nobody's,
  /// and redeeming it creates nothing.
  @Test func theCodeOfAnOwnerWhoseDirectoryIsGoneIsRefused() throws {
    let first = founded()
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    try FileManager.default.removeItem(atPath: first.owner.path)
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(code, newToken: browserToken(), name: "B", now: now)
    }
    #expect(!FileManager.default.fileExists(atPath: first.owner.path))
  }

  /// However many browsers redeem one code at once, one gets in.
  @Test func concurrentRedeemsOfOneCodeLetOneBrowserIn() async throws {
    let first = founded()
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let devices = self.devices
    let now = self.now
    let tokens = (0..<8).map { _ in browserToken() }
    let redeemed = await withTaskGroup(of: Bool.self) { group in
      for token in tokens {
        group.addTask { (try? devices.redeem(code, newToken: token, name: "B", now: now)) != nil }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(redeemed == 1)
    let inside = try tokens.filter {
      if case .owner(first.owner, _) = try devices.resolve(token: $0) { return true }
      return false
    }
    #expect(inside.count == 1)
    #expect(try devicesOnDisk(of: first.owner)?.browsers.count == 2)
  }

  @Test func anOwnerHasAtMostMaximumBrowsers() throws {
    let first = founded()
    for _ in 1..<Devices.maximumBrowsers { _ = try link(first) }
    #expect(try devicesOnDisk(of: first.owner)?.browsers.count == Devices.maximumBrowsers)
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    let extra = browserToken()
    #expect(throws: DeviceStore.Refusal.tooManyBrowsers) {
      try devices.redeem(code, newToken: extra, name: "B", now: now)
    }
    #expect(try devices.resolve(token: extra) == .owner(owner(of: extra), browserID: nil))
    #expect(try devices.browserIndex.owner(ofDigest: SecretDigest.of(extra)) == nil)
    // The refused code is still pending; once a browser is signed out
    // (which cancels it), a new one works.
    #expect(try devicesOnDisk(of: first.owner)?.code?.digest == code.digest)
    #expect(try devices.signOut(browser: 2, of: first.owner, askedBy: first.token, now: now))
    let (again, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    _ = try devices.redeem(again, newToken: extra, name: "B", now: now)
    #expect(
      try devices.resolve(token: extra)
        == .owner(first.owner, browserID: Devices.maximumBrowsers + 1))
  }

  // MARK: Signing out

  /// A signed-out linked browser no longer acts for the owner: its index
  /// entry stays, leading to an owner who no longer lists it, so its token
  /// resolves as signed out (and the browser is given a new one). Were the
  /// entry lost, the token would lead only to the empty directory its own
  /// digest names, as a stranger's does: never to the owner.
  @Test func aSignedOutLinkedBrowserNoLongerActsForTheOwner() throws {
    let first = founded()
    let linked = try link(first)
    let id = try browserID(linked, of: first.owner)
    #expect(try devices.signOut(browser: id, of: first.owner, askedBy: first.token, now: now))
    #expect(try devices.resolve(token: linked) == .signedOut)
    #expect(try devices.browserIndex.owner(ofDigest: SecretDigest.of(linked)) == first.owner.key)
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: 1))
    #expect(try devices.existingSecret(of: first.owner, token: linked) == nil)
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.createCode(for: first.owner, token: linked, name: "A", now: now)
    }
    // Again, or an id never given: nothing to sign out.
    #expect(try !devices.signOut(browser: id, of: first.owner, askedBy: first.token, now: now))
    #expect(try !devices.signOut(browser: 99, of: first.owner, askedBy: first.token, now: now))
    try devices.browserIndex.remove(digest: SecretDigest.of(linked), ifLeadingTo: first.owner.key)
    #expect(try devices.resolve(token: linked) == .owner(owner(of: linked), browserID: nil))
    #expect(!FileManager.default.fileExists(atPath: owner(of: linked).path))
  }

  @Test func theFoundingBrowserSignedOutFromALinkedOne() throws {
    let first = founded()
    try makeStore(data).update(first.owner, initial: storedOrFirstRun) { _ in }
    let linked = try link(first)
    let dayLater = now.addingTimeInterval(Devices.newBrowserWait)
    #expect(try devices.signOut(browser: 1, of: first.owner, askedBy: linked, now: dayLater))
    #expect(try devices.resolve(token: first.token) == .signedOut)
    #expect(try devices.resolve(token: linked) == .owner(first.owner, browserID: 2))
    #expect(try makeStore(data).load(first.owner) == .firstRun(), "the lists stay the owner's")
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.createCode(for: first.owner, token: first.token, name: "A", now: now)
    }
    // The linked browser can still link others.
    _ = try link(first, by: linked)
  }

  @Test func signOutEverywhereElse() throws {
    let first = founded()
    let linked = try (0..<3).map { _ in try link(first) }
    let dayLater = now.addingTimeInterval(Devices.newBrowserWait)
    #expect(try devices.signOutOthers(of: first.owner, keeping: linked[1], now: dayLater) == 3)
    #expect(try devices.resolve(token: linked[1]) == .owner(first.owner, browserID: 3))
    #expect(try devices.resolve(token: first.token) == .signedOut)
    for token in [linked[0], linked[2]] {
      #expect(try devices.resolve(token: token) == .signedOut)
    }
    #expect(try devicesOnDisk(of: first.owner)?.browsers.map(\.id) == [3])
    #expect(try devices.signOutOthers(of: first.owner, keeping: linked[1], now: dayLater) == 0)
    // An owner with one browser and no devices file has nobody to sign out.
    let alone = founded()
    #expect(try devices.signOutOthers(of: alone.owner, keeping: alone.token, now: now) == 0)
    #expect(!FileManager.default.fileExists(atPath: DeviceStore.path(of: alone.owner)))
  }

  /// The last browser signed out leaves an owner with an empty list: their
  /// founding browser, signed out with the rest, must not come back as if
  /// the owner had never had a devices file (a request of it that was
  /// answered before the sign-out may still ask for a code).
  @Test func aSignedOutFoundingBrowserDoesNotComeBackWhenNoneIsLeft() throws {
    let first = founded()
    _ = try devices.secret(of: first.owner, token: first.token, name: "A", now: now)
    #expect(
      try devices.signOut(
        browser: 1, of: first.owner, askedBy: first.token, now: now,
        lastBrowser: .confirmed { true }))
    #expect(try devicesOnDisk(of: first.owner)?.browsers == [])
    #expect(try devices.resolve(token: first.token) == .signedOut)
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.createCode(for: first.owner, token: first.token, name: "A", now: now)
    }
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.secret(of: first.owner, token: first.token, name: "A", now: now)
    }
    #expect(try devices.resolve(token: first.token) == .signedOut)
  }

  /// "Sign out everywhere else" from a browser that another one signed out
  /// a moment before (its request was already under way) signs out nobody.
  @Test func signOutEverywhereElseFromABrowserSignedOutMeanwhile() throws {
    let first = founded()
    let one = try link(first)
    let other = try link(first)
    #expect(
      try devices.signOut(
        browser: try browserID(other, of: first.owner), of: first.owner, askedBy: first.token,
        now: now))
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.signOutOthers(of: first.owner, keeping: other, now: now)
    }
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: 1))
    #expect(try devices.resolve(token: one) == .owner(first.owner, browserID: 2))
  }

  /// A code made by a browser that is then signed out (a lost phone) must
  /// not let another browser in: signing out cancels the pending code.
  @Test func signingOutCancelsThePendingCode() throws {
    let first = founded()
    let lost = try link(first)
    let (code, _) = try devices.createCode(for: first.owner, token: lost, name: "A", now: now)
    #expect(try devices.signOutOthers(of: first.owner, keeping: first.token, now: now) == 1)
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(code, newToken: browserToken(), name: "B", now: now)
    }
    #expect(devices.codeIndex.entries().isEmpty, "the cancelled code's entry")
    // The same with one browser signed out.
    let lostAgain = try link(first)
    let (again, _) = try devices.createCode(
      for: first.owner, token: lostAgain, name: "A", now: now)
    #expect(
      try devices.signOut(
        browser: try browserID(lostAgain, of: first.owner), of: first.owner,
        askedBy: first.token, now: now))
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(again, newToken: browserToken(), name: "B", now: now)
    }
    #expect(devices.codeIndex.entries().isEmpty)
    // Signing out nobody leaves a pending code alone.
    let (kept, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    #expect(try !devices.signOut(browser: 99, of: first.owner, askedBy: first.token, now: now))
    #expect(try devices.signOutOthers(of: first.owner, keeping: first.token, now: now) == 0)
    _ = try devices.redeem(kept, newToken: browserToken(), name: "B", now: now)
  }

  /// A redeem for a token already listed (the web layer must pass a new
  /// one) would list a browser twice, a file its own reader refuses and
  /// sets aside, signing out every linked browser: it is never written.
  @Test func aFileListingABrowserTwiceIsNeverWritten() throws {
    let first = founded()
    let linked = try link(first)
    let before = try #require(try devicesOnDisk(of: first.owner))
    let (code, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    #expect(throws: (any Error).self) {
      try devices.redeem(code, newToken: linked, name: "B", now: now)
    }
    let fresh = DeviceStore(dataDirectory: data, durable: false)
    let after = try #require(try devicesOnDisk(of: first.owner))
    #expect(after.browsers == before.browsers)
    #expect(try fresh.resolve(token: linked) == .owner(first.owner, browserID: 2))
    #expect(try fresh.resolve(token: first.token) == .owner(first.owner, browserID: 1))
  }

  /// The last browser goes only when the owner confirmed and nothing
  /// else reaches their lists, asked under their lock; refused, nothing
  /// is written.
  @Test func theLastBrowserGoesOnlyConfirmedAndWhenNothingElseReaches() throws {
    let first = founded()
    _ = try devices.secret(of: first.owner, token: first.token, name: "A", now: now)
    let before = try filesUnder(data)
    #expect(throws: DeviceStore.Refusal.lastBrowser) {
      try devices.signOut(browser: 1, of: first.owner, askedBy: first.token, now: now)
    }
    #expect(throws: DeviceStore.Refusal.lastBrowser) {
      try devices.signOut(
        browser: 1, of: first.owner, askedBy: first.token, now: now,
        lastBrowser: .confirmed { false })
    }
    #expect(try filesUnder(data) == before)
    #expect(try devices.resolve(token: first.token) == .owner(first.owner, browserID: 1))
    var askedUnderTheLock = false
    #expect(
      try devices.signOut(
        browser: 1, of: first.owner, askedBy: first.token, now: now,
        lastBrowser: .confirmed {
          askedUnderTheLock = DocumentLock.threads(waitingForOrHolding: first.owner.lockPath) == 1
          return true
        }))
    #expect(askedUnderTheLock)
    #expect(try devices.resolve(token: first.token) == .signedOut)
  }

  /// A browser linked less than a day ago signs out only itself and the
  /// browsers linked after it; a day on, any.
  @Test func aBrowserLinkedLessThanADayAgoSignsOutNoOlderOne() throws {
    let first = founded()
    let phone = try link(first)
    let tablet = try link(first, at: now.addingTimeInterval(3_600))
    let soon = now.addingTimeInterval(7_200)
    #expect(throws: DeviceStore.Refusal.newBrowser(until: now + Devices.newBrowserWait)) {
      try devices.signOut(browser: 1, of: first.owner, askedBy: phone, now: soon)
    }
    #expect(throws: DeviceStore.Refusal.newBrowser(until: now + Devices.newBrowserWait)) {
      try devices.signOutOthers(of: first.owner, keeping: phone, now: soon)
    }
    #expect(try devicesOnDisk(of: first.owner)?.browsers.map(\.id) == [1, 2, 3])
    // The founding browser may at once; the phone may sign out the tablet
    // (linked after it) and itself.
    #expect(try devices.signOut(browser: 3, of: first.owner, askedBy: phone, now: soon))
    #expect(try devices.resolve(token: tablet) == .signedOut)
    let later = now.addingTimeInterval(Devices.newBrowserWait)
    #expect(try devices.signOut(browser: 1, of: first.owner, askedBy: phone, now: later))
    #expect(try devices.resolve(token: first.token) == .signedOut)
    // A browser signed out asks nothing any more.
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.signOut(browser: 2, of: first.owner, askedBy: first.token, now: later)
    }
  }

  // MARK: The owner's secret

  @Test func theSecretIsTheSameForEveryBrowserAndNotInTheFiles() throws {
    let first = founded()
    let secret = try devices.secret(of: first.owner, token: first.token, name: "A", now: now)
    #expect(
      try devices.secret(of: first.owner, token: first.token, name: "A", now: now).bytes
        == secret.bytes, "asked again, the same")
    var codes: [LinkCode] = []
    var tokens = [first.token]
    for _ in 0..<3 {
      let (code, _) = try devices.createCode(
        for: first.owner, token: tokens.last!, name: "A", now: now)
      codes.append(code)
      let token = browserToken()
      _ = try devices.redeem(code, newToken: token, name: "B", now: now)
      tokens.append(token)
    }
    let (pending, _) = try devices.createCode(
      for: first.owner, token: first.token, name: "A", now: now)
    codes.append(pending)
    for token in tokens {
      let opened = try #require(try devices.existingSecret(of: first.owner, token: token))
      #expect(opened.bytes == secret.bytes)
      #expect(
        try devices.secret(of: first.owner, token: token, name: "A", now: now).bytes
          == secret.bytes)
    }
    #expect(secret.bytes.count == 32)
    #expect(try devices.existingSecret(of: first.owner, token: browserToken()) == nil)

    // Nothing on disk spells a token, a code or the secret, in any form.
    var needles: [(String, Data)] = []
    for token in tokens {
      needles.append(("token", Data(token.utf8)))
      needles.append(("token", Data(token.uppercased().utf8)))
      needles.append(("token bytes", Data(bytes(ofHex: token))))
    }
    for code in codes {
      for form in [code.canonical, code.grouped, code.inLink] {
        needles.append(("code", Data(form.utf8)))
      }
    }
    let hex = secret.bytes.map { String(format: "%02x", $0) }.joined()
    needles += [
      ("secret", Data(secret.bytes)), ("secret hex", Data(hex.utf8)),
      ("secret HEX", Data(hex.uppercased().utf8)),
      ("secret base64", Data(Data(secret.bytes).base64EncodedString().utf8)),
    ]
    let files = try filesUnder(data)
    #expect(files.keys.contains { $0.hasSuffix(DeviceStore.fileName) })
    #expect(files.count >= 5, "\(files.keys.sorted())")
    for (path, contents) in files {
      for (what, needle) in needles {
        #expect(contents.range(of: needle) == nil, "\(what) in \(path)")
        #expect(!Data(path.utf8).contains(needle), "\(what) in the name \(path)")
      }
    }
    // The sealed copies open under their own token only.
    let stored = try #require(try devicesOnDisk(of: first.owner))
    for (browser, token) in zip(stored.browsers, tokens) {
      #expect(OwnerSecret.opened(browser.sealedSecret, under: token)?.bytes == secret.bytes)
      #expect(OwnerSecret.opened(browser.sealedSecret, under: browserToken()) == nil)
      #expect(OwnerSecret.opened(browser.sealedSecret, under: browser.digest) == nil)
    }
    let sealedCode = try #require(stored.code?.sealedSecret)
    #expect(OwnerSecret.opened(sealedCode, under: pending.canonical)?.bytes == secret.bytes)
    #expect(OwnerSecret.opened(sealedCode, under: pending.inLink) == nil)
  }

  @Test func eachOwnerHasTheirOwnSecret() throws {
    let alice = founded()
    let bob = founded()
    let aliceSecret = try devices.secret(of: alice.owner, token: alice.token, name: "A", now: now)
    let bobSecret = try devices.secret(of: bob.owner, token: bob.token, name: "A", now: now)
    #expect(aliceSecret.bytes != bobSecret.bytes)
    // A browser of one owner opens nothing of the other's.
    #expect(try devices.existingSecret(of: bob.owner, token: alice.token) == nil)
    #expect(throws: DeviceStore.Refusal.signedOut) {
      try devices.secret(of: bob.owner, token: alice.token, name: "A", now: now)
    }
  }

  /// An owner secret printed by mistake (a log line, a failed test's
  /// message) shows nothing of its bytes.
  @Test func theSecretIsNeverPrinted() {
    let secret = OwnerSecret.random()
    let hex = secret.bytes.map { String(format: "%02x", $0) }.joined()
    var dumped = ""
    dump(secret, to: &dumped)
    for printed in [
      "\(secret)", String(reflecting: secret), "\([secret])", "\(Optional(secret))", dumped,
    ] {
      #expect(!printed.contains("\(secret.bytes)"), "\(printed)")
      #expect(!printed.contains(hex), "\(printed)")
      #expect(!printed.contains("\(secret.bytes[0]), \(secret.bytes[1])"), "\(printed)")
    }
  }

  // MARK: Last seen

  @Test func noteSeenWritesAtMostOnceADay() throws {
    let first = founded()
    let linked = try link(first)
    let path = DeviceStore.path(of: first.owner)
    let written = try FileIdentity.of(path)
    // The same day (UTC): nothing written.
    let dayStart = Date(
      timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    for time in [now, now.addingTimeInterval(60), dayStart.addingTimeInterval(86_399)] {
      try devices.noteSeen(owner: first.owner, token: linked, now: time)
      #expect(try FileIdentity.of(path) == written)
    }
    // The next day: once.
    let tomorrow = dayStart.addingTimeInterval(86_400 + 5)
    try devices.noteSeen(owner: first.owner, token: linked, now: tomorrow)
    let rewritten = try FileIdentity.of(path)
    #expect(rewritten != written)
    let browser = try #require(
      try devicesOnDisk(of: first.owner)?.browser(digest: SecretDigest.of(linked)))
    #expect(browser.lastSeen == tomorrow && browser.firstSeen == now)
    try devices.noteSeen(owner: first.owner, token: linked, now: tomorrow.addingTimeInterval(3_600))
    #expect(try FileIdentity.of(path) == rewritten)
    // A browser not listed, and an owner without a devices file: nothing.
    try devices.noteSeen(
      owner: first.owner, token: browserToken(), now: tomorrow.addingTimeInterval(86_400))
    #expect(try FileIdentity.of(path) == rewritten)
    let alone = founded()
    try devices.noteSeen(owner: alone.owner, token: alone.token, now: tomorrow)
    #expect(!FileManager.default.fileExists(atPath: alone.owner.path))
  }

  // MARK: A damaged file

  /// A devices file that cannot be read (damaged, or of a newer version)
  /// fails closed: every browser of the owner, the founding one (maybe a
  /// signed-out lost phone) included, is refused until an operator repairs
  /// it, and the file stays where it is. Setting it aside would let the
  /// founding browser act again and lock every linked browser out.
  @Test(arguments: ["damaged", "newer"])
  func aDevicesFileThatCannotBeReadKeepsEveryBrowserOut(_ damage: String) throws {
    let first = founded()
    let linked = try link(first)
    let path = DeviceStore.path(of: first.owner)
    let good = try Data(contentsOf: URL(fileURLWithPath: path))
    var stored = try #require(try devicesOnDisk(of: first.owner))
    stored.version = Devices.currentVersion + 1
    let bytes =
      damage == "newer"
      ? try stored.encoded() : Data("<?xml version=\"1.0\"?><plist><dict><key>version".utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let fresh = DeviceStore(dataDirectory: data, durable: false)
    for token in [first.token, linked] {
      #expect(throws: (any Error).self) { try fresh.resolve(token: token) }
      #expect(throws: (any Error).self) { try devices.resolve(token: token) }
    }
    #expect(throws: (any Error).self) {
      try fresh.createCode(for: first.owner, token: first.token, name: "A", now: now)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "kept in place")
    let names = try FileManager.default.contentsOfDirectory(atPath: first.owner.path)
    #expect(!names.contains { $0.contains(".corrupt-") }, "\(names)")
    // Repaired (the operator puts a good file back), both act again.
    try good.write(to: URL(fileURLWithPath: path))
    #expect(try fresh.resolve(token: first.token) == .owner(first.owner, browserID: 1))
    #expect(try fresh.resolve(token: linked) == .owner(first.owner, browserID: 2))
  }

  /// A file of a newer version, or one that breaks its own rules (a
  /// browser listed twice), is not read either.
  @Test func aDevicesFileBreakingItsRulesIsNotRead() throws {
    let first = founded()
    _ = try link(first)
    var stored = try #require(try devicesOnDisk(of: first.owner))
    stored.browsers.append(stored.browsers[0])
    stored.nextBrowserID += 1
    #expect(throws: Devices.Invalid.self) { try Devices.decode(try stored.encoded()) }
    var newer = try #require(try devicesOnDisk(of: first.owner))
    newer.version = 2
    #expect(throws: Devices.NewerVersion.self) { try Devices.decode(try newer.encoded()) }
    var older = try #require(try devicesOnDisk(of: first.owner))
    older.version = 0
    #expect(throws: Devices.Invalid.self) { try Devices.decode(try older.encoded()) }
    var manyIDs = try #require(try devicesOnDisk(of: first.owner))
    manyIDs.nextBrowserID = 2
    #expect(throws: Devices.Invalid.self) { try Devices.decode(try manyIDs.encoded()) }
  }

  // MARK: Link codes as text

  @Test func aCodeIsShownInGroupsAndReadLeniently() throws {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<100 {
      let code = LinkCode.random(using: &generator)
      #expect(code.canonical.count == 28)
      #expect(code.canonical.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) })
      let groups = code.grouped.split(separator: "-", omittingEmptySubsequences: false)
      #expect(groups.count == 7 && groups.allSatisfy { $0.count == 4 })
      #expect(groups.joined() == code.canonical)
      #expect(code.inLink == code.canonical.lowercased())
      #expect(code.digest == SecretDigest.of(code.canonical))
      for typed in [
        code.canonical, code.grouped, code.inLink, code.grouped.lowercased(),
        code.grouped.replacingOccurrences(of: "-", with: " "),
        " \(code.grouped.replacingOccurrences(of: "-", with: " - "))\t",
        code.canonical.replacingOccurrences(of: "1", with: "I")
          .replacingOccurrences(of: "0", with: "o"),
        code.canonical.replacingOccurrences(of: "1", with: "l"),
        code.canonical.replacingOccurrences(of: "1", with: "L"),
        code.canonical.replacingOccurrences(of: "0", with: "O"),
      ] {
        #expect(LinkCode(typed: typed) == code, "\(typed)")
      }
      // Never printed.
      #expect(!"\(code)".contains(code.canonical))
      #expect(!String(reflecting: code).contains(code.canonical))
      #expect(!"\([code])".contains(code.canonical))
    }
  }

  @Test func wrongLengthsAndCharactersAreRefused() throws {
    let code = LinkCode.random()
    let canonical = code.canonical
    var refused = [
      "", "-", "    ", String(canonical.dropLast()), canonical + "0", canonical + canonical,
      String(canonical.dropFirst(4)), String(repeating: "-", count: 200) + canonical,
      canonical + String(repeating: " ", count: 100),
    ]
    for bad in ["U", "u", "!", "_", ".", "/", "é", "Ｋ", "К", "\0", "\n", "+", "%"] {
      refused.append(String(canonical.dropLast()) + bad)
      refused.append(bad + String(canonical.dropFirst()))
    }
    for text in refused {
      #expect(LinkCode(typed: text) == nil, "\(text.debugDescription)")
    }
    // Spaces and dashes alone do not count toward the length.
    #expect(LinkCode(typed: String(canonical.dropLast()) + "-") == nil)
    #expect(LinkCode(typed: "\(canonical.prefix(27)) \(canonical.suffix(1))") == code)
  }

  /// A code takes 28 draws of 5 bits each, 140 bits in all: every value a
  /// draw can take gives a different character, so no two sequences of
  /// draws give the same code.
  @Test func aCodeDraws140BitsOfRandomness() {
    /// Gives the values it is told, and counts them.
    struct Scripted: RandomNumberGenerator {
      var values: [UInt64]
      var drawn = 0
      mutating func next() -> UInt64 {
        defer { drawn += 1 }
        return values[drawn % values.count]
      }
    }
    // A draw of n in 0..<32 comes from any 64-bit value whose low byte is
    // in n*8 ..< n*8+8 (the standard library's multiply-shift for 32
    // outcomes); put n in the low byte's top 5 bits, with noise elsewhere.
    func value(_ n: UInt64) -> UInt64 { (n << 3) | 0x5A5A_5A5A_5A5A_5A00 | (n & 7) }
    var seen: Set<String> = []
    for position in 0..<LinkCode.length {
      var characters: Set<Character> = []
      for n in UInt64(0)..<32 {
        var values = [UInt64](repeating: value(0), count: LinkCode.length)
        values[position] = value(n)
        var generator = Scripted(values: values)
        let code = LinkCode.random(using: &generator)
        #expect(generator.drawn == LinkCode.length)
        characters.insert(Array(code.canonical)[position])
        seen.insert(code.canonical)
      }
      #expect(characters.count == 32, "position \(position)")
    }
    #expect(seen.count == 28 * 31 + 1)
    #expect(LinkCode.length * 5 == 140)
    // From the system's source: no repeats, every character used.
    var codes: Set<String> = []
    var used: Set<Character> = []
    for _ in 0..<500 {
      let code = LinkCode.random()
      codes.insert(code.canonical)
      used.formUnion(code.canonical)
    }
    #expect(codes.count == 500)
    #expect(used.count == 32)
  }
}
