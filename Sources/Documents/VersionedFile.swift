import Foundation
import Support

/// The decoded values of one kind of document, one per key (a visitor),
/// kept while the document is unchanged: the one cache of decoded
/// documents, used by the checklists store and the preferences, on any
/// engine.
///
/// A value is valid while the version of the document now
/// (`DocumentStore.identity(of:)`: a `stat`, or one indexed read) equals
/// the version of the bytes it was decoded from (`DocumentSnapshot`) or
/// written as (`cacheWritten`). Writers replace a document only under its
/// lock and atomically, so another process's write is seen at the next
/// load. A version that cannot be decoded is moved aside
/// (`DocumentStore.setAside`) under the document's lock, and only if it is
/// still that version: another process may have set it aside and written a
/// good one meanwhile, which is then read instead. Thread-safe; the cache is bounded by a count
/// and by the bytes its values are taken to cost (`MemoryFootprint`), the least
/// recently used forgotten first (O(1) amortised: `LRUCache`).
package final class VersionedFile<Value: Sendable>: Sendable {
  /// How many keys' values a cache keeps unless told otherwise: the
  /// default of the preferences', devices' and links' caches, and of the
  /// checklists store's when `serve --cache-capacity` is given (its models
  /// are otherwise bounded by bytes: see `MemoryFootprint`).
  package static var defaultCapacity: Int { 10_000 }

  /// A value and the identity of the version of the file it stands for.
  package struct Version: Sendable {
    package var value: Value
    package var identity: DocumentVersion

    package init(value: Value, identity: DocumentVersion) {
      self.value = value
      self.identity = identity
    }
  }

  @usableFromInline let cache: LockedValue<LRUCache<String, KeptVersion>>
  @usableFromInline let cacheCapacity: Int
  @usableFromInline let cacheBudget: Int
  @usableFromInline let footprint: MemoryFootprint
  @usableFromInline let lockName: String
  @usableFromInline let setAsideDurably: Bool
  @usableFromInline let documents: any DocumentStore
  @usableFromInline let decode: @Sendable (Data) throws -> Value
  @usableFromInline let keepsInPlace: @Sendable (any Error) -> Bool

  /// - Parameters:
  ///   - documents: where the files are kept.
  ///   - lockName: the name of the lock file beside each file, which its
  ///     writers hold to replace it.
  ///   - cacheCapacity: how many keys' values stay decoded.
  ///   - cacheBudget: how many bytes they may take together, each
  ///     estimated by `footprint`.
  ///   - setAsideDurably: flush the directory after moving a file aside.
  ///   - decode: the value of a file's bytes; what it throws makes the
  ///     file corrupt, unless `keepsInPlace` says otherwise.
  ///   - keepsInPlace: true for a decoding error that does not make the
  ///     file corrupt (it is then left in place and reported).
  package init(
    documents: any DocumentStore, lockName: String, cacheCapacity: Int,
    cacheBudget: Int = .max, footprint: MemoryFootprint = .uncounted, setAsideDurably: Bool = false,
    decode: @escaping @Sendable (Data) throws -> Value,
    keepsInPlace: @escaping @Sendable (any Error) -> Bool = { _ in false }
  ) {
    self.cache = LockedValue(LRUCache(capacity: cacheCapacity, budget: cacheBudget))
    self.cacheCapacity = cacheCapacity
    self.cacheBudget = cacheBudget
    self.footprint = footprint
    self.documents = documents
    self.lockName = lockName
    self.setAsideDurably = setAsideDurably
    self.decode = decode
    self.keepsInPlace = keepsInPlace
  }

  /// The value of the file at `path` now, nil when there is none. Never
  /// writes, except to move an undecodable version aside under the lock.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - key: its cache entry (the visitor).
  ///   - attempts: how many times a version replaced meanwhile is looked
  ///     at again before giving up (`.unsettled`).
  ///   - awaitingWriter: called before a file that is not the cached
  ///     version is read, with the attempt (from 0) and the cached
  ///     identity; true to look again instead (a writer of this process is
  ///     about to cache what it wrote, which costs less than decoding it).
  /// - Throws: `VersionedFileError`; `.setAside` once for a file that
  ///   cannot be decoded (the next load then finds none).
  @inlinable
  package func load(
    _ path: String, key: String, attempts: Int = .max,
    awaitingWriter: (_ attempt: Int, _ cached: DocumentVersion?) -> Bool = { _, _ in false }
  ) throws(VersionedFileError) -> Version? {
    try current(path, key: key, attempts: attempts, locked: false, awaitingWriter: awaitingWriter)
  }

  /// As `load`, for a caller that holds the file's lock (a writer that
  /// starts from the stored value): an undecodable version is moved aside
  /// without taking the lock again.
  @inlinable
  package func loadLocked(_ path: String, key: String) throws(VersionedFileError) -> Version? {
    try current(path, key: key, attempts: .max, locked: true) { _, _ in false }
  }

  /// The value at `path`, nil when there is none: `loadLocked` for a
  /// caller that holds the file's lock, else `load`.
  @inlinable
  package func value(_ path: String, key: String, locked: Bool) throws(VersionedFileError)
    -> Value?
  {
    try (locked ? loadLocked(path, key: key) : load(path, key: key))?.value
  }

  /// Caches `value` as the one of the version `identity`, which the
  /// caller has just written (the store said which) and whose lock it
  /// still holds.
  package func cacheWritten(_ value: Value, identity: DocumentVersion, key: String) {
    let version = Version(value: value, identity: identity)
    let cost = cost(of: version)
    cache.withLock {
      $0.setValue(
        KeptVersion(value: version.value, identity: version.identity), forKey: key, cost: cost)
    }
  }

  /// Caches `value` as the one of the version `identity`, just written in
  /// place of `replaced` by a caller that no longer holds the lock: only
  /// while `replaced` is what is cached, so that a newer version another
  /// writer cached meanwhile is not hidden.
  package func cacheWritten(
    _ value: Value, identity: DocumentVersion, replacing replaced: DocumentVersion, key: String
  ) {
    cache(Version(value: value, identity: identity), over: replaced, key: key)
  }

  /// `snapshot` decoded, and cached in place of `replaced` (as
  /// `cacheWritten(_:identity:replacing:key:)` does): the version a
  /// conditional write found instead of the one it expected. Nil when it
  /// cannot be decoded (then only a load under the lock may set it aside).
  package func adopt(_ snapshot: DocumentSnapshot, replacing replaced: DocumentVersion, key: String)
    -> Version?
  {
    guard let value = try? decode(snapshot.contents) else { return nil }
    let version = Version(value: value, identity: snapshot.version)
    cache(version, over: replaced, key: key)
    return version
  }

  /// The version cached for `key`, unchecked: it may have been replaced
  /// since. For a writer that checks the version as it writes
  /// (`DocumentStore.replace(_:at:ifStill:…)`).
  package func cachedVersion(forKey key: String) -> Version? {
    kept(forKey: key)
  }

  /// The identity of the version cached for `key`, if any.
  package func cachedIdentity(forKey key: String) -> DocumentVersion? {
    cache.withLock { $0.value(forKey: key)?.identity }
  }

  /// The number of cached keys.
  package var cachedCount: Int { cache.withLock { $0.count } }

  /// What the cached values are estimated to take (bytes, by `footprint`)
  /// and how many there are.
  package var cachedUsage: (bytes: Int, entries: Int) {
    cache.withLock { ($0.totalCost, $0.count) }
  }

  /// Forgets every cached value.
  package func removeAllCached() {
    cache.withLock { $0 = LRUCache(capacity: cacheCapacity, budget: cacheBudget) }
  }

  // MARK: Internals

  /// The version cached for `key`, its value's type restored (a value is
  /// only ever kept as a `Value`).
  @usableFromInline
  func kept(forKey key: String) -> Version? {
    guard let kept = cache.withLock({ $0.value(forKey: key) }) else { return nil }
    return Version(value: kept.value as! Value, identity: kept.identity)
  }

  /// What one look at a file that is not the cached version found.
  @usableFromInline enum Outcome {
    case version(Version)
    /// Replaced or removed meanwhile: look again.
    case replaced
  }

  /// The cached value while the file's identity is the cached one, else
  /// the decoded file (`refresh`).
  @inlinable
  func current(
    _ path: String, key: String, attempts: Int, locked: Bool,
    awaitingWriter: (_ attempt: Int, _ cached: DocumentVersion?) -> Bool
  ) throws(VersionedFileError) -> Version? {
    var attempt = 0
    while attempt < attempts {
      defer { attempt += 1 }
      let identity: DocumentVersion
      do {
        guard let found = try documents.identity(of: path) else {
          cache.withLock { $0.removeValue(forKey: key) }
          return nil
        }
        identity = found
      } catch {
        throw .io(error)
      }
      let cached = kept(forKey: key)
      if let cached, cached.identity == identity { return cached }
      if awaitingWriter(attempt, cached?.identity) { continue }
      switch try refresh(path, key: key, cached: cached, locked: locked) {
      case .version(let version): return version
      case .replaced: continue
      }
    }
    throw .unsettled(path: path)
  }

  /// Reads and decodes the file, unless it is the cached version after all:
  /// with many threads, a version is often replaced between a `stat` and
  /// the cache look-up, and decoding it again was 40% of a busy visitor's
  /// preferences commits.
  @usableFromInline
  func refresh(_ path: String, key: String, cached: Version?, locked: Bool)
    throws(VersionedFileError) -> Outcome
  {
    let snapshot: DocumentSnapshot
    do {
      if let cached, try documents.identity(of: path) == cached.identity {
        return .version(cached)
      }
      guard let read = try documents.snapshot(of: path) else { return .replaced }
      snapshot = read
    } catch {
      throw .io(error)
    }
    let value: Value
    do {
      value = try decode(snapshot.contents)
    } catch {
      if keepsInPlace(error) { throw .leftInPlace(path: path, reason: error) }
      guard let keptAs = try setAside(path, key: key, version: snapshot.version, locked: locked)
      else { return .replaced }
      throw .setAside(path: path, keptAs: keptAs, reason: error)
    }
    let version = Version(value: value, identity: snapshot.version)
    cache(version, over: cached?.identity, key: key)
    return .version(version)
  }

  /// Caches `version` for `key` only while the entry is still the one seen
  /// before reading or writing it (`seen`, nil for none): another thread
  /// may have cached a newer version meanwhile, which this one must not
  /// hide.
  @usableFromInline
  func cache(_ version: Version, over seen: DocumentVersion?, key: String) {
    let cost = cost(of: version)
    cache.withLock { cache in
      if cache.value(forKey: key)?.identity == seen {
        cache.setValue(
          KeptVersion(value: version.value, identity: version.identity), forKey: key, cost: cost)
      }
    }
  }

  /// What keeping `version` is taken to cost (see `MemoryFootprint`).
  @usableFromInline
  func cost(of version: Version) -> Int {
    footprint.bytes(storedBytes: version.identity.size)
  }

  /// Moves an undecodable file aside, under its lock and only if it is
  /// still `version`; the new path, or nil when it was replaced meanwhile.
  private func setAside(_ path: String, key: String, version: DocumentVersion, locked: Bool)
    throws(VersionedFileError) -> String?
  {
    let move = { () throws(DocumentError) -> String? in
      guard try self.documents.identity(of: path) == version else { return nil }
      let keptAs = try self.documents.setAside(path, durable: self.setAsideDurably)
      self.cache.withLock { $0.removeValue(forKey: key) }
      return keptAs
    }
    let lockPath = DocumentName.split(path).directory + "/" + lockName
    do {
      return locked ? try move() : try documents.withLock(lockPath) { try move() }
    } catch let error as DocumentError {
      throw .io(error)
    } catch let error as DocumentLock.Busy {
      throw .busy(error)
    } catch {
      throw .io(
        DocumentError(operation: "lock", path: lockPath, reason: .failed, detail: "\(error)"))
    }
  }
}

/// A version that `VersionedFile` caches, its value's type erased: a type
/// of its own, outside the generic class, so that the cache's code is
/// specialised in this module for one concrete type. Keeping
/// `VersionedFile.Version`, generic over the value, it ran generic,
/// instantiating metadata at every look-up (~3,700 instructions a load,
/// `bench-web --profile N computed`).
package struct KeptVersion: Sendable {
  let value: any Sendable
  let identity: DocumentVersion
}
