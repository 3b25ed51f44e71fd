import Documents
import FileSystem
import Foundation

/// The visitors' private calendar addresses: who a presented secret
/// belongs to, and each visitor's secret, created, replaced and removed.
///
/// Two kinds of file, both private (0600) and replaced atomically and
/// durably (`AtomicFile`):
/// - `users/<shard>/<key>/Calendar.secret`: the visitor's current secret
///   (64 hex digits and a newline), so Settings can show their address;
/// - `calendars/<2 hex>/<SHA-256 of the secret>`: the index entry that
///   leads from a presented secret to the visitor's directory key (64 hex
///   digits and a newline). The index never holds a secret, and a secret
///   is never a path: only its digest is.
///
/// A change runs under the visitor's checklists lock (the one `prune`
/// takes before it removes a directory) and writes in an order that a
/// crash cannot turn into a way in: a replacement writes the new index
/// entry, then the visitor's secret, then removes the old entry; a removal
/// removes the secret, then the entry. An entry left behind by a crash
/// leads nowhere, because a presented secret is always compared (in
/// constant time) with the visitor's current one before it is accepted.
package struct CalendarAddresses: Sendable {
  /// The secret file's name in a visitor's directory.
  package static let secretFileName = "Calendar.secret"
  /// The index's directory under the data directory.
  package static let indexDirectoryName = "calendars"

  /// `Calendar.secret` in each visitor's directory, and the index.
  private let records: IndexedOwnerFile<CalendarSecret>
  /// From a secret's digest to its visitor.
  package let index: DigestIndex

  package var dataDirectory: String { records.dataDirectory }
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package var durable: Bool { records.durable }
  /// Where the documents are kept.
  package var documents: any DocumentStore { records.documents }

  /// A file that holds no secret is left in place and read as none (its
  /// visitor may create an address, which replaces it).
  package init(
    dataDirectory: String, durable: Bool = true, documents: any DocumentStore = LocalDocuments()
  ) {
    records = IndexedOwnerFile(
      fileName: Self.secretFileName, dataDirectory: dataDirectory, durable: durable,
      documents: documents,
      decode: { data in
        guard let secret = DigestIndex.line(data).flatMap({ CalendarSecret(text: $0) }) else {
          throw NotASecret()
        }
        return secret
      },
      keepsInPlace: { _ in true }, encode: { Data(Array("\($0.text)\n".utf8)) })
    index = records.index(Self.indexDirectoryName)
  }

  /// A `Calendar.secret` that holds no secret.
  private struct NotASecret: Error {}

  /// The path of the index entry of a secret whose digest is `digest`.
  package func entryPath(digest: String) -> String { index.entryPath(digest: digest) }

  /// The path of a visitor's secret file.
  package static func secretPath(of visitor: VisitorDirectory) -> String {
    "\(visitor.path)/\(secretFileName)"
  }

  // MARK: Reading

  /// The visitor's current secret, nil when they have none (or its file
  /// is not one: then they have no working address, and may create one).
  package func secret(of visitor: VisitorDirectory) throws(DocumentError) -> CalendarSecret? {
    do {
      return try records.load(visitor, locked: false)
    } catch {
      switch error {
      case .io(let error): throw error
      case .leftInPlace, .setAside: return nil
      case .busy(let busy):
        throw DocumentError(
          operation: "load", path: busy.path, reason: .failed, detail: busy.description)
      case .unsettled(let path): throw DocumentError.unsettled(path)
      }
    }
  }

  /// The visitor whose current secret `presented` is, or nil: for a token
  /// of another form, an unknown one, one replaced or removed, or one
  /// whose index entry outlived a crash. The index is looked up by the
  /// token's digest; the visitor's secret is then compared with it in
  /// constant time.
  package func visitor(presenting presented: String) throws(DocumentError) -> VisitorDirectory? {
    guard CalendarSecret.isWellFormed(presented.utf8) else { return nil }
    guard
      let visitor = try records.owner(
        ofDigest: CalendarSecret.digest(of: presented), in: index)
    else { return nil }
    guard let current = try secret(of: visitor), current.matches(presented) else { return nil }
    return visitor
  }

  // MARK: Changes

  /// A step of a change, in the order they are made; `afterStep` is told
  /// of each (tests stop a change there, as a crash would).
  package enum Step: Sendable, Equatable {
    case newEntryWritten
    case secretWritten
    case secretRemoved
    case oldEntryRemoved
  }

  /// The visitor's secret, made now if they have none. A repeated create
  /// (a form sent twice) keeps the address the first one made.
  package func create(
    for visitor: VisitorDirectory, afterStep: (Step) throws -> Void = { _ in }
  ) throws -> CalendarSecret {
    try locked(visitor) { () throws -> CalendarSecret in
      if let current = try secret(of: visitor) { return current }
      return try assignNew(to: visitor, replacing: nil, afterStep: afterStep)
    }
  }

  /// A new secret for the visitor; the old one (if any) stops working the
  /// moment the new one is in place.
  package func replace(
    for visitor: VisitorDirectory, afterStep: (Step) throws -> Void = { _ in }
  ) throws -> CalendarSecret {
    try locked(visitor) { () throws -> CalendarSecret in
      try assignNew(to: visitor, replacing: try secret(of: visitor), afterStep: afterStep)
    }
  }

  /// Removes the visitor's address; nothing happens when they have none.
  package func remove(
    for visitor: VisitorDirectory, afterStep: (Step) throws -> Void = { _ in }
  ) throws {
    try locked(visitor) { () throws in
      let current = try secret(of: visitor)
      let path = Self.secretPath(of: visitor)
      guard (try documents.identity(of: path)) != nil else { return }
      try documents.remove(path, durable: durable)
      try afterStep(.secretRemoved)
      if let current { try removeEntry(digest: current.digest, ifLeadingTo: visitor.key) }
      try afterStep(.oldEntryRemoved)
    }
  }

  /// Removes the index entry of `secret` when it leads to the visitor
  /// `key`: what `prune` does once it has removed that visitor's
  /// directory (it read the secret under their lock before).
  package func removeEntry(of secret: CalendarSecret, leadingTo key: String) throws(DocumentError) {
    try removeEntry(digest: secret.digest, ifLeadingTo: key)
  }

  private func assignNew(
    to visitor: VisitorDirectory, replacing old: CalendarSecret?,
    afterStep: (Step) throws -> Void
  ) throws -> CalendarSecret {
    let new = CalendarSecret.random()
    try index.add(digest: new.digest, leadingTo: visitor.key)
    try afterStep(.newEntryWritten)
    try records.write(new, for: visitor)
    try afterStep(.secretWritten)
    if let old { try removeEntry(digest: old.digest, ifLeadingTo: visitor.key) }
    try afterStep(.oldEntryRemoved)
    return new
  }

  /// Removes an index entry when it names `key` (an entry is never
  /// another visitor's, short of a SHA-256 collision, but a check costs
  /// nothing).
  private func removeEntry(digest: String, ifLeadingTo key: String) throws(DocumentError) {
    try index.remove(digest: digest, ifLeadingTo: key)
  }

  /// Runs `body` under the visitor's checklists lock, their directory made
  /// first (a visitor may ask for an address before any other change).
  private func locked<T>(_ visitor: VisitorDirectory, _ body: () throws -> T) throws -> T {
    try records.locked(visitor, creating: true, body)
  }

  // MARK: Maintenance

  /// One entry of the index, as `check` and `prune` find it.
  package typealias Entry = DigestIndex.Entry

  /// Every entry of the index (see `DigestIndex.entries()`).
  package func entries() -> [Entry] { index.entries() }

  /// True when `entry` is the entry of its visitor's current secret; false
  /// for one that leads nowhere (left by a crash between the steps of a
  /// change, or by a visitor directory removed by hand).
  package func isCurrent(_ entry: Entry) -> Bool {
    guard let key = entry.key else { return false }
    let visitor = VisitorDirectory(dataDirectory: dataDirectory, key: key)
    guard let secret = try? secret(of: visitor) else { return false }
    return entryPath(digest: secret.digest) == entry.path
  }

  /// Removes the index entries that lead nowhere, each under its visitor's
  /// lock when the visitor still has a directory (a change in progress
  /// writes its new entry before the secret it belongs to), and returns
  /// their paths; with `dryRun` only lists them.
  package func removeStaleEntries(dryRun: Bool) -> (removed: [String], failures: [String]) {
    index.removeStaleEntries(dataDirectory: dataDirectory, dryRun: dryRun, isCurrent: isCurrent)
  }
}
