import Documents
import FileSystem
import Foundation
import Logging

/// Which owner a browser acts for, and the changes to an owner's browsers:
/// link codes made and redeemed, browsers signed out.
///
/// An *owner* is a data directory (`VisitorDirectory`); a *browser* is a
/// random token in a visitor cookie. A browser whose token's digest is the
/// owner's key is the owner's founding browser: every visitor from before
/// devices existed is one, so their cookies keep working with nothing
/// migrated. Other browsers reach their owner through the index
/// `DATA/browsers/<2>/<digest>`. Either way a browser acts for the owner
/// only while the owner's `Devices.plist` lists it, or, for a founding
/// browser, while the owner has no such file yet.
///
/// Every change runs under the owner's checklists lock (the one `prune`
/// takes) and commits with one atomic durable write of `Devices.plist`.
/// Index entries are written before that write; a spent or cancelled
/// code's entry is removed after it, and a signed-out browser's stays (see
/// `signOut`), so a crash at any point leaves either the state before or
/// the state after, plus at worst an entry that leads nowhere (`checklists
/// check` counts it).
///
/// A devices file that cannot be read fails closed: it stays in place and
/// every browser of its owner is refused (`Unreadable`) until an operator
/// repairs it. Read as no file, it would let a signed-out founding browser
/// (a lost phone) act again and sign every linked browser out.
package final class DeviceStore: Sendable {
  /// The devices file's name in an owner's directory.
  package static let fileName = "Devices.plist"

  /// `Devices.plist` in each owner's directory, and the indexes.
  let records: IndexedOwnerFile<Devices>
  /// From a linked browser's token digest to its owner.
  package let browserIndex: DigestIndex
  /// From a pending link code's digest to its owner.
  package let codeIndex: DigestIndex
  /// From a calendar app's password digest to its owner.
  package let appIndex: DigestIndex
  /// Browsers' owners kept between requests (see `resolveKept`).
  private let known: KnownBrowsers
  private let logger: Logger

  package var dataDirectory: String { records.dataDirectory }
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package var durable: Bool { records.durable }
  /// Where the documents are kept.
  package var documents: any DocumentStore { records.documents }

  package init(
    dataDirectory: String, durable: Bool = true, documents: any DocumentStore = LocalDocuments(),
    cacheCapacity: Int = VersionedFile<Devices>.defaultCapacity,
    logger: Logger = Logger(label: "checklists.devices")
  ) {
    self.logger = logger
    records = IndexedOwnerFile(
      fileName: Self.fileName, dataDirectory: dataDirectory, durable: durable,
      documents: documents, cacheCapacity: cacheCapacity, decode: { try Devices.decode($0) },
      keepsInPlace: { _ in true },  // see `Unreadable`
      encode: { try $0.encoded() })
    browserIndex = records.index("browsers")
    codeIndex = records.index("links")
    appIndex = records.index("apps")
    known = KnownBrowsers(capacity: cacheCapacity, documents: documents)
  }

  /// The owner's devices file cannot be read (damaged, or written by a
  /// newer backend): it is left where it is, and nobody acts for the owner
  /// until an operator repairs it (`checklists check` reports it).
  package struct Unreadable: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
  }

  /// The path of an owner's devices file.
  package static func path(of owner: VisitorDirectory) -> String {
    "\(owner.path)/\(fileName)"
  }

  // MARK: Who a browser is

  /// What a browser's token stands for.
  package enum Resolution: Sendable, Equatable {
    /// It acts for this owner; `browserID` is its entry on the Devices
    /// screen (nil for a founding browser while its owner has one browser).
    case owner(VisitorDirectory, browserID: Int?)
    /// It was signed out (or its link never completed): a new visitor.
    case signedOut
  }

  /// The owner `token` acts for. Costs one failed `open` and one `stat`
  /// for a browser without devices; a linked browser's owner is read from
  /// the index and its devices file from the cache.
  ///
  /// - Throws: `Unreadable` for an owner whose devices file cannot be
  ///   read, whichever of their browsers asks; `StoreError`.
  package func resolve(token: String) throws -> Resolution {
    let digest = SecretDigest.of(token)
    let linkedOwner: VisitorDirectory?
    do { linkedOwner = try records.owner(ofDigest: digest, in: browserIndex) } catch {
      throw StoreError.io(error)
    }
    let owner = linkedOwner ?? VisitorDirectory(dataDirectory: dataDirectory, key: digest)
    guard let devices = try devices(of: owner) else {
      return linkedOwner == nil ? .owner(owner, browserID: nil) : .signedOut
    }
    guard let browser = devices.browser(digest: digest) else { return .signedOut }
    return .owner(owner, browserID: browser.id)
  }

  /// As `resolve(token:)`, answered from what the browser's last request
  /// found while its owner's directory is unchanged since (`KnownBrowsers`):
  /// one `stat` for a returning browser. `now` is read before the
  /// directory is.
  package func resolveKept(token: String, now: Date) throws -> Resolution {
    try known.resolution(of: token, now: now) { try resolve(token: token) }
  }

  /// The owner the browser `token` acted for at its last request, as kept
  /// (not checked: `resolveKept` checks it); nil when none is kept.
  package func keptOwner(ofToken token: String) -> VisitorDirectory? {
    known.keptOwner(of: token)
  }

  /// The owner's devices file; nil when they have none (one browser).
  ///
  /// - Throws: `Unreadable` (logged; the file stays in place), `StoreError`.
  package func devices(of owner: VisitorDirectory) throws -> Devices? {
    try load(owner, locked: false)
  }

  // MARK: The owner's secret

  /// The owner's secret as `token`'s browser holds it; nil when it has none
  /// yet (a founding browser before its first code or share link).
  package func existingSecret(of owner: VisitorDirectory, token: String) throws -> OwnerSecret? {
    guard let devices = try devices(of: owner),
      let browser = devices.browser(digest: SecretDigest.of(token))
    else { return nil }
    return OwnerSecret.opened(browser.sealedSecret, under: token)
  }

  /// The owner's secret as `token`'s browser holds it, made now when the
  /// owner has none: their devices file is then written, listing this
  /// (founding) browser under `name`.
  package func secret(of owner: VisitorDirectory, token: String, name: String, now: Date) throws
    -> OwnerSecret
  {
    try change(owner) { devices in
      try Self.openSecret(&devices, owner: owner, token: token, name: name, now: now)
    }
  }

  // MARK: Link codes

  /// A new link code for the owner, replacing any pending one; it works
  /// once, until `Devices.codeLifetime` from `now`.
  package func createCode(
    for owner: VisitorDirectory, token: String, name: String, now: Date
  ) throws -> (code: LinkCode, expires: Date) {
    let code = LinkCode.random()
    let expires = now.addingTimeInterval(Devices.codeLifetime)
    let replaced: String? = try change(owner) { devices in
      let secret = try Self.openSecret(&devices, owner: owner, token: token, name: name, now: now)
      try codeIndex.add(digest: code.digest, leadingTo: owner.key)
      let replaced = devices.code?.digest
      devices.code = Devices.PendingCode(
        digest: code.digest, expires: expires,
        sealedSecret: try secret.sealed(under: code.canonical))
      return replaced
    }
    if let replaced { try? codeIndex.remove(digest: replaced, ifLeadingTo: owner.key) }
    return (code, expires)
  }

  /// Why a code was not redeemed.
  package enum Refusal: Error, Sendable, Equatable {
    /// Nobody's pending code: wrong, spent, replaced or expired (one
    /// answer for all, so that an answer tells a guesser nothing).
    case invalidCode
    /// The owner already has `Devices.maximumBrowsers` browsers.
    case tooManyBrowsers
    /// The browser asking is no longer one of the owner's (signed out by
    /// another one a moment ago).
    case signedOut
    /// The sign-out would leave the owner no browser, and was not
    /// confirmed, or something still reaches their lists (see `LastBrowser`).
    case lastBrowser
    /// The browser asking was linked less than `Devices.newBrowserWait`
    /// ago, and the sign-out takes a browser linked before it; it may
    /// from `until` on.
    case newBrowser(until: Date)
  }

  /// Spends `code`: the browser of `newToken` (a token never used before:
  /// one already listed is refused, and one of another owner's browsers
  /// would be taken from them) then acts for the code's owner, listed as
  /// `name`.
  ///
  /// - Throws: `Refusal`, or what a failed read or write throws (nothing
  ///   is then changed).
  package func redeem(_ code: LinkCode, newToken: String, name: String, now: Date) throws
    -> VisitorDirectory
  {
    let digest = code.digest
    guard let owner = try records.owner(ofDigest: digest, in: codeIndex) else {
      throw Refusal.invalidCode
    }
    let key = owner.key
    guard try documents.directoryExists(owner.path) else { throw Refusal.invalidCode }
    try change(owner) { devices in
      guard let pending = devices.code, SecretDigest.constantTimeEqual(pending.digest, digest),
        pending.expires > now,
        let secret = OwnerSecret.opened(pending.sealedSecret, under: code.canonical)
      else { throw Refusal.invalidCode }
      guard devices.browsers.count < Devices.maximumBrowsers else {
        throw Refusal.tooManyBrowsers
      }
      let browserDigest = SecretDigest.of(newToken)
      try browserIndex.add(digest: browserDigest, leadingTo: key)
      devices.code = nil
      devices.add(
        digest: browserDigest, name: name, now: now,
        sealedSecret: try secret.sealed(under: newToken))
    }
    try? codeIndex.remove(digest: digest, ifLeadingTo: key)
    return owner
  }

  // MARK: Signing out

  /// What a sign-out that would leave the owner no browser may do: their
  /// lists would be reached by no browser again, so it is refused unless
  /// the owner confirmed it, and even then while a share link or the
  /// calendar address still reaches them (nobody would be left to end it).
  package enum LastBrowser {
    /// Refused (`Refusal.lastBrowser`).
    case refuse
    /// Confirmed: allowed when `nothingElseReaches`, asked under the
    /// owner's lock (so that no link is made meanwhile), answers true.
    case confirmed(nothingElseReaches: () throws -> Bool)
  }

  /// Signs out the owner's browser `id`, asked by `token`'s browser; false
  /// when it is not theirs (or already signed out). It becomes a new
  /// visitor, with a new token, at its next request.
  ///
  /// A linked browser's index entry stays: it still leads to the owner,
  /// who no longer lists it, so its token resolves as signed out and the
  /// browser is given a new one. Without the entry, the old token would
  /// read as the founding browser of an empty directory of its own: a new
  /// visitor as well, but one that kept a token once linked. `prune`
  /// removes such entries with their owner.
  ///
  /// - Throws: `Refusal.signedOut` when the asking browser is no longer
  ///   the owner's; `Refusal.newBrowser` when it was linked a moment ago
  ///   and `id` was linked before it; `Refusal.lastBrowser` (see
  ///   `LastBrowser`). Nobody is then signed out.
  @discardableResult
  package func signOut(
    browser id: Int, of owner: VisitorDirectory, askedBy token: String, now: Date,
    lastBrowser: LastBrowser = .refuse
  ) throws -> Bool {
    try signOut(of: owner, askedBy: token, now: now, lastBrowser: lastBrowser) { devices in
      devices.browsers.filter { $0.id == id }
    } > 0
  }

  /// Signs out every browser of the owner but `token`'s, and ends every
  /// calendar app's password (an app is a device too); returns how many
  /// browsers went.
  ///
  /// - Throws: `Refusal.signedOut` when `token`'s browser is itself no
  ///   longer the owner's (another browser signed it out a moment ago);
  ///   `Refusal.newBrowser` when it was linked a moment ago. Nobody is
  ///   then signed out.
  package func signOutOthers(of owner: VisitorDirectory, keeping token: String, now: Date) throws
    -> Int
  {
    let kept = SecretDigest.of(token)
    return try signOut(
      of: owner, askedBy: token, now: now, lastBrowser: .refuse, endingApps: true
    ) { devices in
      devices.browsers.filter { $0.digest != kept }
    }
  }

  /// Signs out the browsers `chosen` picks and returns how many, under
  /// the rules above. When any goes, the pending code goes with them: it
  /// may be one of theirs (a lost phone's), which must not let another
  /// browser in. Its index entry is removed after the write; the
  /// browsers' stay (see above).
  /// The apps' passwords end too with `endingApps`, and always with the
  /// last browser; their index entries are removed after the write.
  private func signOut(
    of owner: VisitorDirectory, askedBy token: String, now: Date, lastBrowser: LastBrowser,
    endingApps: Bool = false, _ chosen: (Devices) -> [Devices.Browser]
  ) throws -> Int {
    var endedApps: [String] = []
    let (count, code): (Int, String?) = try change(owner) { devices in
      // An owner who never listed a browser has one, the founding one.
      guard devices.hasListedAnyBrowser else { return (0, nil) }
      guard let asking = devices.browser(digest: SecretDigest.of(token)) else {
        throw Refusal.signedOut
      }
      let ids = Set(chosen(devices).map(\.id))
      guard !ids.isEmpty else { return (0, nil) }
      if let until = devices.newBrowserWait(of: asking, now: now),
        ids.contains(where: { $0 < asking.id })
      {
        throw Refusal.newBrowser(until: until)
      }
      if devices.browsers.allSatisfy({ ids.contains($0.id) }) {
        guard case .confirmed(let nothingElseReaches) = lastBrowser, try nothingElseReaches()
        else { throw Refusal.lastBrowser }
      }
      devices.browsers.removeAll { ids.contains($0.id) }
      if endingApps || devices.browsers.isEmpty {
        endedApps = devices.apps.map(\.digest)
        devices.apps = []
      }
      let code = devices.code?.digest
      devices.code = nil
      return (ids.count, code)
    }
    if let code { try? codeIndex.remove(digest: code, ifLeadingTo: owner.key) }
    for digest in endedApps { try? appIndex.remove(digest: digest, ifLeadingTo: owner.key) }
    return count
  }

  /// Notes that `token`'s browser was seen on `now`'s day (called when its
  /// cookie is renewed, at most once a day); nothing when the owner has no
  /// devices file or it already says so.
  package func noteSeen(owner: VisitorDirectory, token: String, now: Date) throws {
    let digest = SecretDigest.of(token)
    guard let seen = try devices(of: owner)?.browser(digest: digest)?.lastSeen,
      Self.day(seen) < Self.day(now)
    else { return }
    try change(owner) { devices in
      guard let index = devices.browsers.firstIndex(where: { $0.digest == digest }) else { return }
      devices.browsers[index].lastSeen = now
    }
  }

  // MARK: Internals

  /// The secret of `token`'s browser in `devices`, the file begun with
  /// this founding browser and a new secret when there is none. An owner
  /// whose browsers were all signed out has a file that lists none: their
  /// founding browser was signed out with the rest and stays so.
  static func openSecret(
    _ devices: inout Devices, owner: VisitorDirectory, token: String, name: String, now: Date
  ) throws -> OwnerSecret {
    let digest = SecretDigest.of(token)
    if !devices.hasListedAnyBrowser && digest == owner.key {
      let secret = OwnerSecret.random()
      devices.add(
        digest: digest, name: name, now: now, sealedSecret: try secret.sealed(under: token))
      return secret
    }
    guard let browser = devices.browser(digest: digest),
      let secret = OwnerSecret.opened(browser.sealedSecret, under: token)
    else { throw Refusal.signedOut }
    return secret
  }

  /// Runs `body` on the owner's devices (empty when they have none) under
  /// their lock, and writes the file when it changed. A file that its own
  /// reader would refuse (and so keep every browser of the owner out) is
  /// never written: the change throws `Devices.Invalid` instead.
  func change<T>(_ owner: VisitorDirectory, _ body: (inout Devices) throws -> T) throws
    -> T
  {
    try records.locked(owner, creating: true) { () throws -> T in
      let stored = try load(owner, locked: true)
      var devices = stored ?? Devices()
      let result = try body(&devices)
      if devices != stored ?? Devices() {
        try devices.validate()
        try records.write(devices, for: owner)
      }
      return result
    }
  }

  /// The owner's devices file, nil when there is none; one that cannot be
  /// read is left in place, logged, and thrown as `Unreadable`.
  func load(_ owner: VisitorDirectory, locked: Bool) throws -> Devices? {
    do {
      return try records.load(owner, locked: locked)
    } catch {
      switch error {
      case .io(let error): throw StoreError.io(error)
      case .busy(let busy): throw StoreError.busy(busy)
      case .setAside(let path, _, let reason), .leftInPlace(let path, let reason):
        logger.error(
          "devices file cannot be read; its owner's browsers are refused until it is repaired",
          metadata: ["path": "\(path)", "reason": "\(reason)"])
        throw Unreadable(path: path, reason: "\(reason)")
      case .unsettled(let path):
        throw StoreError.io(DocumentError.unsettled(path))
      }
    }
  }

  private static func day(_ date: Date) -> Int { Int(date.timeIntervalSince1970 / 86_400) }
}
