import Documents
import FileSystem
import Foundation

/// An index from a secret's SHA-256 to the owner it belongs to: one small
/// file per secret, `<directory>/<first 2 hex>/<digest>`, holding the
/// owner's directory key (64 hex digits and a newline). It never holds a
/// secret, and a secret is never a path: only its digest is.
///
/// An entry only says where to look: whoever finds one still checks the
/// owner's own record of the secret before accepting it, so an entry left
/// behind by a crash (or by an owner removed by hand) leads nowhere.
/// Entries are written and removed under the owner's lock; files are
/// private (0600) and replaced atomically and durably (`AtomicFile`).
package struct DigestIndex: Sendable {
  /// The index's directory.
  package let directory: String
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package let durable: Bool
  /// Where the documents are kept.
  package let documents: any DocumentStore

  package init(
    directory: String, durable: Bool, documents: any DocumentStore = LocalDocuments()
  ) {
    self.directory = directory
    self.documents = documents
    self.durable = durable
  }

  /// The path of the entry of `digest`.
  package func entryPath(digest: String) -> String {
    "\(directory)/\(digest.prefix(2))/\(digest)"
  }

  /// The owner key the entry of `digest` holds; nil when there is none
  /// (or it holds no key).
  package func owner(ofDigest digest: String) throws(DocumentError) -> String? {
    guard let data = try documents.read(entryPath(digest: digest)), let key = Self.line(data),
      VisitorDirectory.isKey(key, inShard: String(key.prefix(2)))
    else { return nil }
    return key
  }

  /// Writes the entry of `digest`, leading to `key`.
  package func add(digest: String, leadingTo key: String) throws(DocumentError) {
    let entry = entryPath(digest: digest)
    try documents.prepareDirectory(DocumentName.split(entry).directory, durable: durable)
    try documents.write(Data(Array("\(key)\n".utf8)), to: entry, durable: durable)
  }

  /// Removes the entry of `digest` when it leads to `key` (an entry is
  /// never another owner's, short of a SHA-256 collision, but a check costs
  /// nothing).
  package func remove(digest: String, ifLeadingTo key: String) throws(DocumentError) {
    let path = entryPath(digest: digest)
    guard let data = try documents.read(path), Self.line(data) == key else { return }
    try documents.remove(path, durable: durable)
  }

  // MARK: Maintenance

  /// One entry of the index, as `check` and `prune` find it.
  package struct Entry: Sendable, Equatable {
    package var path: String
    /// The digest its name gives; nil for a misplaced name.
    package var digest: String?
    /// The owner key it holds; nil when it holds none.
    package var key: String?

    package init(path: String, digest: String?, key: String?) {
      self.path = path
      self.digest = digest
      self.key = key
    }
  }

  /// Every file under the index directory, in path order, with the key it
  /// holds; misplaced names (not `<2 hex>/<64 hex>` in their own shard)
  /// come back with the digest and key nil.
  package func entries() -> [Entry] {
    var found: [Entry] = []
    for shard in documents.entries(ofDirectory: directory) {
      let shardPath = "\(directory)/\(shard)"
      guard VisitorDirectory.isShard(shard) else {
        found.append(Entry(path: shardPath, digest: nil, key: nil))
        continue
      }
      for name in documents.entries(ofDirectory: shardPath) {
        let path = "\(shardPath)/\(name)"
        guard VisitorDirectory.isKey(name, inShard: shard) else {
          found.append(Entry(path: path, digest: nil, key: nil))
          continue
        }
        let key = (try? documents.read(path)).flatMap { $0 }.flatMap(Self.line)
        let valid =
          key.flatMap { VisitorDirectory.isKey($0, inShard: String($0.prefix(2))) } == true
        found.append(Entry(path: path, digest: name, key: valid ? key : nil))
      }
    }
    return found
  }

  /// Removes the entries that lead nowhere (`isCurrent` false), each under
  /// its owner's lock when the owner still has a directory (a change in
  /// progress writes its entry before its record, and is waited for), and
  /// returns their paths; with `dryRun` only lists them.
  package func removeStaleEntries(
    dataDirectory: String, dryRun: Bool, isCurrent: (Entry) -> Bool
  ) -> (removed: [String], failures: [String]) {
    let swept = removeStale(dataDirectory: dataDirectory, dryRun: dryRun, isCurrent: isCurrent)
    return (swept.removed.map(\.path), swept.failures)
  }

  /// As `removeStaleEntries`, returning the entries removed.
  package func removeStale(
    dataDirectory: String, dryRun: Bool, isCurrent: (Entry) -> Bool
  ) -> (removed: [Entry], failures: [String]) {
    var removed: [Entry] = []
    var failures: [String] = []
    for entry in entries() where !isCurrent(entry) {
      if dryRun {
        removed.append(entry)
        continue
      }
      do {
        let stale: Bool
        if let key = entry.key,
          case let owner = VisitorDirectory(dataDirectory: dataDirectory, key: key),
          (try? documents.directoryExists(owner.path)) == true
        {
          stale = try documents.withLock(owner.lockPath) { () throws -> Bool in
            guard !isCurrent(entry) else { return false }
            try removeStale(entry.path)
            return true
          }
        } else {
          try removeStale(entry.path)
          stale = true
        }
        if stale { removed.append(entry) }
      } catch {
        failures.append("\(entry.path): \(error)")
      }
    }
    return (removed, failures)
  }

  /// Removes an entry `check` or `prune` found stale (a misplaced
  /// directory on disk included), from wherever the documents are.
  package func removeStale(_ path: String) throws {
    if (try? FileStatus.of(path))?.isDirectory == true {
      try FileManager.default.removeItem(atPath: path)
    } else {
      try documents.remove(path, durable: durable)
    }
  }

  /// The first line of a small file, without its newline.
  static func line(_ data: Data) -> String? {
    guard data.count <= 256 else { return nil }
    var bytes = [UInt8](data)
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(validating: bytes, as: UTF8.self)
  }
}
