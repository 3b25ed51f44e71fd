import Documents
import Foundation

/// An owner's small file and the digest indexes that lead to its owner:
/// what `DeviceStore` (`Devices.plist`, the `browsers/` and `links/`
/// indexes), `ShareLinks` (`Shares.plist`, `shares/`) and
/// `CalendarAddresses` (`Calendar.secret`, `calendars/`) are each built on.
///
/// The file says what is live; an index entry only says where to look (a
/// presented secret is always checked against the file). Every change
/// runs under the owner's checklists lock (the one `prune` takes), and the
/// file is decoded once per version (`VersionedFile`), a write caching
/// what it wrote. The stores keep their own rules: what the file holds,
/// the order of their writes, and what an unreadable file means.
package struct IndexedOwnerFile<Value: Sendable>: Sendable {
  /// The file's name in an owner's directory.
  package let fileName: String
  package let dataDirectory: String
  /// When false, writes skip `fsync` (tests and benchmarks only).
  package let durable: Bool
  /// Where the documents are kept.
  package let documents: any DocumentStore
  private let file: VersionedFile<Value>
  private let encode: @Sendable (Value) throws -> Data

  /// - Parameters:
  ///   - decode: the value of the file's bytes; what it throws makes the
  ///     file unreadable (set aside, unless `keepsInPlace` says otherwise).
  ///   - encode: the bytes of a value, as the file keeps them.
  package init(
    fileName: String, dataDirectory: String, durable: Bool, documents: any DocumentStore,
    cacheCapacity: Int = VersionedFile<Value>.defaultCapacity,
    decode: @escaping @Sendable (Data) throws -> Value,
    keepsInPlace: @escaping @Sendable (any Error) -> Bool = { _ in false },
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    self.fileName = fileName
    self.dataDirectory = dataDirectory
    self.durable = durable
    self.documents = documents
    self.encode = encode
    file = VersionedFile(
      documents: documents, lockName: VisitorDirectory.checklistsLockName,
      cacheCapacity: cacheCapacity, setAsideDurably: durable, decode: decode,
      keepsInPlace: keepsInPlace)
  }

  /// The index kept in `directoryName` under the data directory.
  package func index(_ directoryName: String) -> DigestIndex {
    DigestIndex(
      directory: "\(dataDirectory)/\(directoryName)", durable: durable, documents: documents)
  }

  /// The path of an owner's file.
  package func path(of owner: VisitorDirectory) -> String {
    "\(owner.path)/\(fileName)"
  }

  /// The owner `index` names for `digest`: where to look, not yet a way in.
  package func owner(ofDigest digest: String, in index: DigestIndex) throws(DocumentError)
    -> VisitorDirectory?
  {
    try index.owner(ofDigest: digest).map {
      VisitorDirectory(dataDirectory: dataDirectory, key: $0)
    }
  }

  /// The owner's file, nil when there is none; `locked` when the caller
  /// holds the owner's lock (see `VersionedFile.value`).
  package func load(_ owner: VisitorDirectory, locked: Bool) throws(VersionedFileError) -> Value? {
    try file.value(path(of: owner), key: owner.key, locked: locked)
  }

  /// Writes the owner's file, under their lock, and caches `value` as the
  /// version written.
  package func write(_ value: Value, for owner: VisitorDirectory) throws {
    let identity = try documents.write(encode(value), to: path(of: owner), durable: durable)
    file.cacheWritten(value, identity: identity, key: owner.key)
  }

  /// Runs `body` under the owner's checklists lock, their directory made
  /// first when `creating` (an owner may make a link or an address before
  /// any other change).
  package func locked<T>(
    _ owner: VisitorDirectory, creating: Bool, _ body: () throws -> T
  ) throws -> T {
    if creating { try documents.prepareDirectory(owner.path, durable: durable) }
    return try documents.withLock(owner.lockPath, body)
  }
}
