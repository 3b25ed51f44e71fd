import ChecklistsModel
import Foundation
import Logging

/// Loads and saves visitors' `Checklists.plist`, with a bounded cache of
/// decoded models. Thread-safe; several processes may share one data
/// directory, since every cached model is checked against the file's
/// identity before use and every change happens under the visitor's `flock`.
public final class ChecklistStore: Sendable {
  /// How a store reads and writes.
  public struct Configuration: Sendable {
    public var dataDirectory: String
    /// Visitors whose decoded model is kept in memory (least recently used
    /// go first); decoding costs ~0.4 ms for 100 items, ~20 ms for 5,000.
    public var cacheCapacity: Int
    /// The format written; reading accepts any.
    public var format: PropertyListSerialization.PropertyListFormat
    /// When false, writes skip `fsync` (tests and benchmarks only).
    public var durable: Bool

    public init(
      dataDirectory: String, cacheCapacity: Int = 10_000,
      format: PropertyListSerialization.PropertyListFormat = .xml, durable: Bool = true
    ) {
      self.dataDirectory = dataDirectory
      self.cacheCapacity = cacheCapacity
      self.format = format
      self.durable = durable
    }
  }

  private struct Cached: Sendable {
    var identity: FileIdentity
    var model: DataModel
  }

  public let configuration: Configuration
  private let logger: Logger
  private let cache: LockedValue<LRUCache<String, Cached>>

  public init(configuration: Configuration, logger: Logger) {
    self.configuration = configuration
    self.logger = logger
    self.cache = LockedValue(LRUCache(capacity: configuration.cacheCapacity))
  }

  /// The visitor's stored model, or nil when nothing is stored yet. Never
  /// writes (except to set an unreadable file aside).
  ///
  /// - Throws: `.unreadable` once for a file that cannot be decoded (it is
  ///   then set aside, so the next load returns nil); `.io` when a system
  ///   call fails.
  public func load(_ visitor: VisitorDirectory) throws(StoreError) -> DataModel? {
    try loadVersioned(visitor).model
  }

  /// A visitor's model and the identity of the file it came from (nil
  /// when nothing is stored): what a cache of anything derived from the
  /// model checks to know it is still current, in this process or after
  /// another one wrote.
  public struct Versioned: Sendable {
    public var model: DataModel?
    public var version: FileIdentity?
  }

  /// As `load(_:)`, with the version of the file the model came from.
  public func loadVersioned(_ visitor: VisitorDirectory) throws(StoreError) -> Versioned {
    do {
      return try current(visitor, locked: false)
    } catch let error as StoreError {
      throw error
    } catch let error as FileError {
      throw .io(error)
    } catch let error as FileLock.Busy {
      throw .busy(error)
    } catch {
      throw .io(FileError(operation: "load", path: visitor.checklistsPath, errno: EIO))
    }
  }

  /// Changes the visitor's model under their lock: reloads it if another
  /// process changed it, starts from `initial(stored)`, applies `change`,
  /// and writes the file once if the result differs from what is stored.
  ///
  /// - Parameters:
  ///   - initial: the model to start from, given the stored one (nil when
  ///     nothing is stored); e.g. `FirstRun.model(stored:preferences:commit:)`.
  ///   - change: the change; if it throws, nothing is written and its error
  ///     is rethrown.
  /// - Returns: what `change` returned.
  /// - Throws: `StoreError` (`.unreadable`, `.io`), `ChecklistsError.storageFull`
  ///   when the result would pass `Limits.maximumStoredBytes` (see
  ///   `StoredSize`; nothing is written), or whatever `change` throws.
  @discardableResult
  public func update<T>(
    _ visitor: VisitorDirectory, initial: (DataModel?) -> DataModel,
    _ change: (inout DataModel) throws -> T
  ) throws -> T {
    do {
      // The lock file lives in the visitor's directory, so the first change
      // creates it; a load never does.
      try AtomicFile.createDirectory(visitor.path, durable: configuration.durable)
    } catch {
      throw StoreError.io(error)
    }
    do {
      return try FileLock.withLock(visitor.lockPath) { () throws -> T in
        let current = try self.current(visitor, locked: true)
        let stored = current.model
        var model = initial(stored)
        let result = try change(&model)
        let changed = stored.map { $0 != model } ?? (model != DataModel())
        if changed {
          let bytes = try self.encode(model, for: visitor)
          try StoredSize.check(
            encoded: bytes.count, model: model, storedBytes: current.version?.size, stored: stored)
          try self.write(bytes, model, for: visitor)
        }
        return result
      }
    } catch let error as FileError {
      throw StoreError.io(error)
    } catch let error as FileLock.Busy {
      throw StoreError.busy(error)
    }
  }

  /// Forgets every cached model (tests, and after a restore from backup).
  public func removeAllCached() {
    cache.withLock { $0 = LRUCache(capacity: configuration.cacheCapacity) }
  }

  /// The number of cached visitors.
  public var cachedCount: Int { cache.withLock { $0.count } }

  // MARK: Internals

  /// The model on disk now: from the cache when the file's identity matches,
  /// decoded otherwise. Throws `FileError` or `StoreError.unreadable`.
  private func current(_ visitor: VisitorDirectory, locked: Bool) throws -> Versioned {
    let path = visitor.checklistsPath
    while true {
      guard let identity = try FileIdentity.of(path) else {
        cache.withLock { $0.removeValue(forKey: visitor.key) }
        return Versioned(model: nil, version: nil)
      }
      if let cached = cache.withLock({ $0.value(forKey: visitor.key) }), cached.identity == identity
      {
        return Versioned(model: cached.model, version: identity)
      }
      guard let snapshot = try FileSnapshot.read(path) else { continue }  // deleted meanwhile
      do {
        let model = try ChecklistsFile.decode(snapshot.contents)
        cache.withLock {
          $0.setValue(Cached(identity: snapshot.identity, model: model), forKey: visitor.key)
        }
        return Versioned(model: model, version: snapshot.identity)
      } catch let error as DataModel.NewerVersion {
        logger.error(
          "checklists file of a newer version", metadata: ["path": "\(path)", "reason": "\(error)"])
        throw FileError(operation: "decode (\(error))", path: path, errno: EPROTO)
      } catch {
        if let unreadable = try setAside(visitor, snapshot: snapshot, reason: error, locked: locked)
        {
          throw unreadable
        }
        // Another process replaced the file meanwhile: read that version.
      }
    }
  }

  /// Moves an unreadable file aside, under the visitor's lock and only if it
  /// is still the version that failed; nil when it was replaced meanwhile.
  private func setAside(
    _ visitor: VisitorDirectory, snapshot: FileSnapshot, reason: any Error, locked: Bool
  ) throws -> StoreError? {
    let path = visitor.checklistsPath
    let move = { () throws -> StoreError? in
      guard try FileIdentity.of(path) == snapshot.identity else { return nil }
      let keptAs = try CorruptFile.setAside(path)
      self.cache.withLock { $0.removeValue(forKey: visitor.key) }
      self.logger.error(
        "unreadable checklists file set aside",
        metadata: ["path": "\(path)", "keptAs": "\(keptAs)", "reason": "\(reason)"])
      return StoreError.unreadable(path: path, keptAs: keptAs)
    }
    return locked ? try move() : try FileLock.withLock(visitor.lockPath, move)
  }

  private func encode(_ model: DataModel, for visitor: VisitorDirectory) throws -> Data {
    do {
      return try ChecklistsFile.encode(model, format: configuration.format)
    } catch {
      throw FileError(operation: "encode", path: visitor.checklistsPath, errno: EINVAL)
    }
  }

  private func write(_ bytes: Data, _ model: DataModel, for visitor: VisitorDirectory) throws {
    let path = visitor.checklistsPath
    try AtomicFile.replaceReusingSpare(bytes, at: path, durable: configuration.durable)
    // Under the lock nobody else writes, so this is the identity of our bytes.
    guard let identity = try FileIdentity.of(path) else {
      throw FileError(operation: "stat", path: path, errno: ENOENT)
    }
    cache.withLock { $0.setValue(Cached(identity: identity, model: model), forKey: visitor.key) }
  }
}
