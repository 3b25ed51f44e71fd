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

  package let dataDirectory: String
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package let durable: Bool

  package init(dataDirectory: String, durable: Bool = true) {
    self.dataDirectory = dataDirectory
    self.durable = durable
  }

  /// The index's directory.
  package var indexDirectory: String { "\(dataDirectory)/\(Self.indexDirectoryName)" }

  /// The path of the index entry of a secret whose digest is `digest`.
  package func entryPath(digest: String) -> String {
    "\(indexDirectory)/\(digest.prefix(2))/\(digest)"
  }

  /// The path of a visitor's secret file.
  package static func secretPath(of visitor: VisitorDirectory) -> String {
    "\(visitor.path)/\(secretFileName)"
  }

  // MARK: Reading

  /// The visitor's current secret, nil when they have none (or its file
  /// is not one: then they have no working address, and may create one).
  package func secret(of visitor: VisitorDirectory) throws(FileError) -> CalendarSecret? {
    guard let data = try AtomicFile.read(Self.secretPath(of: visitor)) else { return nil }
    return Self.line(data).flatMap { CalendarSecret(text: $0) }
  }

  /// The visitor whose current secret `presented` is, or nil: for a token
  /// of another form, an unknown one, one replaced or removed, or one
  /// whose index entry outlived a crash. The index is looked up by the
  /// token's digest; the visitor's secret is then compared with it in
  /// constant time.
  package func visitor(presenting presented: String) throws(FileError) -> VisitorDirectory? {
    guard CalendarSecret.isWellFormed(presented.utf8) else { return nil }
    let digest = CalendarSecret.digest(of: presented)
    guard let data = try AtomicFile.read(entryPath(digest: digest)),
      let key = Self.line(data), VisitorDirectory.isKey(key, inShard: String(key.prefix(2)))
    else { return nil }
    let visitor = VisitorDirectory(dataDirectory: dataDirectory, key: key)
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
      guard (try FileStatus.of(path)) != nil else { return }
      try FileNames.remove(path)
      if durable { try AtomicFile.syncDirectory(visitor.path) }
      try afterStep(.secretRemoved)
      if let current { try removeEntry(digest: current.digest, ifLeadingTo: visitor.key) }
      try afterStep(.oldEntryRemoved)
    }
  }

  /// Removes the index entry of `secret` when it leads to the visitor
  /// `key`: what `prune` does once it has removed that visitor's
  /// directory (it read the secret under their lock before).
  package func removeEntry(of secret: CalendarSecret, leadingTo key: String) throws(FileError) {
    try removeEntry(digest: secret.digest, ifLeadingTo: key)
  }

  private func assignNew(
    to visitor: VisitorDirectory, replacing old: CalendarSecret?,
    afterStep: (Step) throws -> Void
  ) throws -> CalendarSecret {
    let new = CalendarSecret.random()
    let entry = entryPath(digest: new.digest)
    try AtomicFile.createDirectory(AtomicFile.split(entry).directory, durable: durable)
    try AtomicFile.write(Array("\(visitor.key)\n".utf8), to: entry, durable: durable)
    try afterStep(.newEntryWritten)
    try AtomicFile.write(
      Array("\(new.text)\n".utf8), to: Self.secretPath(of: visitor), durable: durable)
    try afterStep(.secretWritten)
    if let old { try removeEntry(digest: old.digest, ifLeadingTo: visitor.key) }
    try afterStep(.oldEntryRemoved)
    return new
  }

  /// Removes an index entry when it names `key` (an entry is never
  /// another visitor's, short of a SHA-256 collision, but a check costs
  /// nothing).
  private func removeEntry(digest: String, ifLeadingTo key: String) throws(FileError) {
    let path = entryPath(digest: digest)
    guard let data = try AtomicFile.read(path), Self.line(data) == key else { return }
    try FileNames.remove(path)
    if durable { try AtomicFile.syncDirectory(AtomicFile.split(path).directory) }
  }

  /// Runs `body` under the visitor's checklists lock, their directory made
  /// first (a visitor may ask for an address before any other change).
  private func locked<T>(_ visitor: VisitorDirectory, _ body: () throws -> T) throws -> T {
    try AtomicFile.createDirectory(visitor.path, durable: durable)
    return try FileLock.withLock(visitor.lockPath, body)
  }

  // MARK: Maintenance

  /// One entry of the index, as `check` and `prune` find it.
  package struct Entry: Sendable, Equatable {
    package var path: String
    /// The visitor directory key it holds; nil when it holds none.
    package var key: String?

    package init(path: String, key: String?) {
      self.path = path
      self.key = key
    }
  }

  /// Every file under the index directory, in path order, with the key it
  /// holds; misplaced names (not `<2 hex>/<64 hex>` in their own shard)
  /// come back with the key nil.
  package func entries() -> [Entry] {
    var found: [Entry] = []
    for shard in VisitorDirectory.sortedEntries(indexDirectory) {
      let shardPath = "\(indexDirectory)/\(shard)"
      guard VisitorDirectory.isShard(shard) else {
        found.append(Entry(path: shardPath, key: nil))
        continue
      }
      for name in VisitorDirectory.sortedEntries(shardPath) {
        let path = "\(shardPath)/\(name)"
        guard VisitorDirectory.isKey(name, inShard: shard),
          let data = try? AtomicFile.read(path), let key = Self.line(data),
          VisitorDirectory.isKey(key, inShard: String(key.prefix(2)))
        else {
          found.append(Entry(path: path, key: nil))
          continue
        }
        found.append(Entry(path: path, key: key))
      }
    }
    return found
  }

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
    var removed: [String] = []
    var failures: [String] = []
    for entry in entries() where !isCurrent(entry) {
      if dryRun {
        removed.append(entry.path)
        continue
      }
      do {
        let stale: Bool
        if let key = entry.key,
          case let visitor = VisitorDirectory(dataDirectory: dataDirectory, key: key),
          (try? FileStatus.of(visitor.path)) != nil
        {
          stale = try FileLock.withLock(visitor.lockPath) { () throws -> Bool in
            guard !isCurrent(entry) else { return false }
            try removeStale(entry.path)
            return true
          }
        } else {
          try removeStale(entry.path)
          stale = true
        }
        if stale { removed.append(entry.path) }
      } catch {
        failures.append("\(entry.path): \(error)")
      }
    }
    return (removed, failures)
  }

  private func removeStale(_ path: String) throws {
    if (try? FileStatus.of(path))?.isDirectory == true {
      try FileManager.default.removeItem(atPath: path)
    } else {
      try FileNames.remove(path)
    }
  }

  /// The first line of a small file, without its newline.
  private static func line(_ data: Data) -> String? {
    guard data.count <= 256 else { return nil }
    var bytes = [UInt8](data)
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(validating: bytes, as: UTF8.self)
  }
}
