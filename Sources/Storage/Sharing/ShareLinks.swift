import Documents
import FileSystem
import Foundation
import Logging

/// The owners' share links: which list a presented token opens, and each
/// owner's links, made, shown again and revoked.
///
/// Two kinds of file, both private (0600) and replaced atomically and
/// durably (`AtomicFile`):
/// - `users/<shard>/<key>/Shares.plist` (`Shares`): per list and kind, the
///   link's generation, when it was made and its token's SHA-256;
/// - `shares/<2 hex>/<SHA-256 of a token>` (`DigestIndex`): the owner a
///   token leads to.
///
/// No token is stored: the owner's browsers work it out again from the
/// generation and the owner's secret (`ShareToken`), which is itself kept
/// only sealed under each browser's token (`OwnerSecret`). A listing or a
/// backup of the data directory therefore holds no usable link.
///
/// A change runs under the owner's checklists lock (the one `prune` takes)
/// and writes in an order that a crash cannot turn into a way in: a new
/// link writes its index entry, then the record that makes it live; a
/// revocation removes the record, then the entry. An entry left behind by
/// a crash leads nowhere, because a presented token is always compared (in
/// constant time) with the owner's records before it is accepted.
package final class ShareLinks: Sendable {
  /// The shares file's name in an owner's directory.
  package static let fileName = "Shares.plist"
  /// The index's directory under the data directory.
  package static let indexDirectoryName = "shares"

  /// `Shares.plist` in each owner's directory, and the index.
  private let records: IndexedOwnerFile<Shares>
  /// From a token's digest to its owner.
  package let index: DigestIndex
  private let logger: Logger

  package var dataDirectory: String { records.dataDirectory }
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package var durable: Bool { records.durable }
  /// Where the documents are kept.
  package var documents: any DocumentStore { records.documents }

  package init(
    dataDirectory: String, durable: Bool = true, documents: any DocumentStore = LocalDocuments(),
    cacheCapacity: Int = VersionedFile<Shares>.defaultCapacity,
    logger: Logger = Logger(label: "checklists.shares")
  ) {
    self.logger = logger
    records = IndexedOwnerFile(
      fileName: Self.fileName, dataDirectory: dataDirectory, durable: durable,
      documents: documents, cacheCapacity: cacheCapacity, decode: { try Shares.decode($0) },
      encode: { try $0.encoded() })
    index = records.index(Self.indexDirectoryName)
  }

  /// The path of an owner's shares file.
  package static func path(of owner: VisitorDirectory) -> String {
    "\(owner.path)/\(fileName)"
  }

  /// The path of the index entry of a token whose digest is `digest`.
  package func entryPath(digest: String) -> String { index.entryPath(digest: digest) }

  // MARK: What a token opens

  /// What a presented token gives access to.
  package struct Access: Sendable, Equatable {
    /// Whose list it is.
    package let owner: VisitorDirectory
    package let listID: Int
    package let kind: ShareKind
    /// The SHA-256 of the token: what stands for the link wherever the
    /// token itself must not (a memo's key, a CSRF token's input).
    package let digest: String
  }

  /// The link `token` is, or nil: for a token of another form, an unknown
  /// one, one revoked, or one whose index entry outlived a crash. The
  /// index is looked up by the token's digest; the owner's records are
  /// then compared with it in constant time, every one of them.
  package func access(presenting token: String) throws(StoreError) -> Access? {
    guard ShareToken.isWellFormed(token.utf8) else { return nil }
    let digest = SecretDigest.of(token)
    guard let owner = try owner(ofDigest: digest) else { return nil }
    return try access(digest: digest, owner: owner)
  }

  /// The owner the index names for the token whose SHA-256 is `digest`:
  /// where to look, not yet a way in (`access(digest:owner:)` decides).
  /// Nil when the index has no such entry.
  package func owner(ofDigest digest: String) throws(StoreError) -> VisitorDirectory? {
    do { return try records.owner(ofDigest: digest, in: index) } catch { throw .io(error) }
  }

  /// The owner's live link whose token's SHA-256 is `digest`, or nil.
  /// Every record is compared with it, each in constant time.
  package func access(digest: String, owner: VisitorDirectory) throws(StoreError) -> Access? {
    guard let shares = try shares(of: owner) else { return nil }
    var found: Shares.Link?
    for link in shares.links where SecretDigest.constantTimeEqual(link.digest, digest) {
      found = link
    }
    guard let found else { return nil }
    return Access(owner: owner, listID: found.list, kind: found.kind, digest: digest)
  }

  /// The owner's shares file; nil when they have none. A file that cannot
  /// be read is set aside and logged, and reads as none: every link stops
  /// working (its entry leads nowhere), and the owner may make new ones.
  package func shares(of owner: VisitorDirectory) throws(StoreError) -> Shares? {
    try load(owner, locked: false)
  }

  // MARK: Showing links again

  /// A live link as its owner sees it.
  package struct Shown: Sendable, Equatable {
    package let kind: ShareKind
    package let created: Date
    /// The token; nil when the owner's secret as this browser holds it does
    /// not make it (the secret was lost with an unreadable devices file):
    /// the link still works for whoever has it, and may be revoked or
    /// replaced.
    package let token: ShareToken?
  }

  /// The live links of list `listID`, by kind, their tokens worked out with
  /// `secret` (nil when this browser holds none: no token then).
  package func links(of owner: VisitorDirectory, list listID: Int, secret: OwnerSecret?)
    throws(StoreError) -> [ShareKind: Shown]
  {
    var shown: [ShareKind: Shown] = [:]
    for link in try shares(of: owner)?.links ?? [] where link.list == listID {
      shown[link.kind] = Shown(
        kind: link.kind, created: link.created,
        token: secret.flatMap { Self.token(of: link, secret: $0) })
    }
    return shown
  }

  /// The token `secret` makes for `link`, when its digest is the link's.
  private static func token(of link: Shares.Link, secret: OwnerSecret) -> ShareToken? {
    let token = ShareToken.derive(
      secret: secret, listID: link.list, kind: link.kind, generation: link.generation)
    return SecretDigest.constantTimeEqual(token.digest, link.digest) ? token : nil
  }

  // MARK: Changes

  /// A step of a change, in the order they are made; `afterStep` is told
  /// of each (tests stop a change there, as a crash would).
  package enum Step: Sendable, Equatable {
    /// The new token's index entry is written; the link does not work yet.
    case entryWritten
    /// The record is written: the new link works.
    case recordWritten
    /// The record is removed: the link no longer works.
    case recordRemoved
    /// The index entries of the links that went are removed.
    case oldEntriesRemoved
  }

  /// The owner already has `Shares.maximumLinks` links.
  package struct TooManyLinks: Error, Sendable, Equatable {}

  /// The owner's link of `kind` to list `listID`, made now when there is
  /// none. A repeated create (a form sent twice) keeps the link; one whose
  /// token `secret` no longer makes (see `Shown.token`) is replaced by a
  /// new one.
  ///
  /// - Parameters:
  ///   - keeping: the lists whose links may stay (the owner's lists and
  ///     those Recently deleted holds, read under the same lock or before:
  ///     a list leaves both only for good); the links of any other list go
  ///     with this write. Nil keeps every link.
  /// - Throws: `TooManyLinks`, `StoreError`, or what `afterStep` throws.
  package func create(
    _ kind: ShareKind, list listID: Int, for owner: VisitorDirectory, secret: OwnerSecret,
    now: Date, keeping: Set<Int>? = nil, afterStep: (Step) throws -> Void = { _ in }
  ) throws -> ShareToken {
    try locked(owner, creating: true) { () throws -> ShareToken in
      let stored = try load(owner, locked: true)
      var shares = stored ?? Self.fresh()
      var gone: [Shares.Link] = []
      if let keeping {
        gone = shares.links.filter { $0.list != listID && !keeping.contains($0.list) }
        shares.links.removeAll { $0.list != listID && !keeping.contains($0.list) }
      }
      let token: ShareToken
      if let existing = shares.link(list: listID, kind: kind),
        let current = Self.token(of: existing, secret: secret)
      {
        token = current
      } else {
        if let existing = shares.link(list: listID, kind: kind) {
          gone.append(existing)
          shares.links.removeAll { $0 == existing }
        }
        guard shares.links.count < Shares.maximumLinks else { throw TooManyLinks() }
        let generation = shares.nextGeneration
        token = ShareToken.derive(
          secret: secret, listID: listID, kind: kind, generation: generation)
        try mapped { () throws in try index.add(digest: token.digest, leadingTo: owner.key) }
        try afterStep(.entryWritten)
        shares.nextGeneration = generation + 1
        // Whole seconds, what the file keeps: the cached value is the read one.
        let created = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        shares.links.append(
          Shares.Link(
            list: listID, kind: kind, generation: generation, created: created,
            digest: token.digest))
      }
      if shares != stored {
        try write(shares, for: owner)
        try afterStep(.recordWritten)
      }
      try removeEntries(of: gone, owner: owner)
      try afterStep(.oldEntriesRemoved)
      return token
    }
  }

  /// Revokes the owner's link of `kind` to list `listID`: it is `404` from
  /// now on, and never works again (a new link is a new token). False when
  /// there was none.
  @discardableResult
  package func revoke(
    _ kind: ShareKind, list listID: Int, of owner: VisitorDirectory,
    afterStep: (Step) throws -> Void = { _ in }
  ) throws -> Bool {
    let ownerExists = try mapped { () throws in try documents.directoryExists(owner.path) }
    guard ownerExists else { return false }
    return try locked(owner, creating: false) { () throws -> Bool in
      guard var shares = try load(owner, locked: true),
        let link = shares.link(list: listID, kind: kind)
      else { return false }
      shares.links.removeAll { $0 == link }
      try write(shares, for: owner)
      try afterStep(.recordRemoved)
      try removeEntries(of: [link], owner: owner)
      try afterStep(.oldEntriesRemoved)
      return true
    }
  }

  /// Revokes every link of the owner, of every list (those Recently
  /// deleted holds included); returns how many there were. What ending
  /// every way to the owner's lists does, when their last browser goes.
  @discardableResult
  package func revokeAll(of owner: VisitorDirectory) throws -> Int {
    let ownerExists = try mapped { () throws in try documents.directoryExists(owner.path) }
    guard ownerExists else { return 0 }
    return try locked(owner, creating: false) { () throws -> Int in
      guard var shares = try load(owner, locked: true), !shares.links.isEmpty else { return 0 }
      let gone = shares.links
      shares.links = []
      try write(shares, for: owner)
      try removeEntries(of: gone, owner: owner)
      return gone.count
    }
  }

  /// Replaces every link of the owner by a new one of the same list and
  /// kind (a new generation, so a new token): the old tokens are `404`
  /// from now on, and Edit List shows the new ones. Returns how many.
  /// What signing out a browser that saw the links offers.
  @discardableResult
  package func replaceAll(of owner: VisitorDirectory, secret: OwnerSecret) throws -> Int {
    let ownerExists = try mapped { () throws in try documents.directoryExists(owner.path) }
    guard ownerExists else { return 0 }
    return try locked(owner, creating: false) { () throws -> Int in
      guard var shares = try load(owner, locked: true), !shares.links.isEmpty else { return 0 }
      let gone = shares.links
      var replacements: [Shares.Link] = []
      for link in gone {
        let generation = shares.nextGeneration
        shares.nextGeneration += 1
        let token = ShareToken.derive(
          secret: secret, listID: link.list, kind: link.kind, generation: generation)
        try mapped { () throws in try index.add(digest: token.digest, leadingTo: owner.key) }
        var replaced = link
        replaced.generation = generation
        replaced.digest = token.digest
        replacements.append(replaced)
      }
      shares.links = replacements
      try write(shares, for: owner)
      try removeEntries(of: gone, owner: owner)
      return gone.count
    }
  }

  /// A new owner's file. Its generations start at a random point, not 1:
  /// should an owner's file ever be lost (set aside as unreadable), the
  /// links made afterwards still never repeat a revoked link's token.
  private static func fresh() -> Shares {
    var shares = Shares()
    shares.nextGeneration = Int.random(in: 1...(1 << 40))
    return shares
  }

  // MARK: Internals

  private func write(_ shares: Shares, for owner: VisitorDirectory) throws {
    try mapped { () throws in try records.write(shares, for: owner) }
  }

  private func removeEntries(of links: [Shares.Link], owner: VisitorDirectory) throws {
    for link in links {
      try mapped { () throws in try index.remove(digest: link.digest, ifLeadingTo: owner.key) }
    }
  }

  /// Runs `body` under the owner's checklists lock, their directory made
  /// first when `creating` (an owner may share a list before any change).
  private func locked<T>(
    _ owner: VisitorDirectory, creating: Bool, _ body: () throws -> T
  ) throws -> T {
    try mapped { () throws -> T in try records.locked(owner, creating: creating, body) }
  }

  /// `body`, with a failed system call or a busy lock told as the store's
  /// errors (`StoreError`); anything else it throws passes unchanged.
  private func mapped<T>(_ body: () throws -> T) throws -> T {
    try StoreError.reporting(body)
  }

  private func load(_ owner: VisitorDirectory, locked: Bool) throws(StoreError) -> Shares? {
    try OwnerFile.load(records, owner: owner, locked: locked, what: "shares", logger: logger)
  }

  // MARK: Maintenance

  /// One entry of the index, as `check` and `prune` find it.
  package typealias Entry = DigestIndex.Entry

  /// Every entry of the index (see `DigestIndex.entries()`).
  package func entries() -> [Entry] { index.entries() }

  /// True when `entry` is the entry of one of its owner's live links; false
  /// for one that leads nowhere (left by a crash between the steps of a
  /// change, by an unreadable shares file, or by an owner removed).
  package func isCurrent(_ entry: Entry) -> Bool {
    guard let key = entry.key, let digest = entry.digest else { return false }
    let owner = VisitorDirectory(dataDirectory: dataDirectory, key: key)
    guard let shares = try? shares(of: owner) else { return false }
    return shares.links.contains { $0.digest == digest }
  }

  /// Removes the index entries that lead nowhere, each under its owner's
  /// lock when the owner still has a directory (a new link writes its entry
  /// before its record), and returns their paths; with `dryRun` only lists
  /// them.
  package func removeStaleEntries(dryRun: Bool) -> (removed: [String], failures: [String]) {
    index.removeStaleEntries(dataDirectory: dataDirectory, dryRun: dryRun, isCurrent: isCurrent)
  }
}
