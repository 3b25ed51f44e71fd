import ChecklistsModel
import Documents
import FileSystem
import Foundation
import Logging
import ServiceMetrics

/// Loads and saves visitors' `Checklists.plist`, with a bounded cache of
/// decoded models. Thread-safe; several processes may share one data
/// directory, since every cached model is checked against the file's
/// identity before use and every change happens under the visitor's `flock`.
package final class ChecklistStore: Sendable {
  /// How a store reads and writes.
  package struct Configuration: Sendable {
    package var dataDirectory: String
    /// Where the documents are kept (files in `dataDirectory` by default).
    package var documents: any DocumentStore
    /// Visitors whose decoded model is kept in memory (least recently used
    /// go first); decoding costs ~0.4 ms for 100 items, ~20 ms for 5,000.
    package var cacheCapacity: Int
    /// The bytes of memory the decoded models may take together, each
    /// estimated from its file's length (`modelFootprint`).
    package var cacheBudget: Int
    /// The format written; reading accepts any.
    package var format: PropertyListSerialization.PropertyListFormat
    /// When false, writes skip `fsync` (tests and benchmarks only).
    package var durable: Bool
    /// The time a load judges scheduled resets by (see `loadVersioned`):
    /// the system's clock, but for tests.
    package var clock: @Sendable () -> Date

    package init(
      dataDirectory: String, documents: any DocumentStore = LocalDocuments(),
      cacheCapacity: Int = VersionedFile<DataModel>.defaultCapacity, cacheBudget: Int = .max,
      format: PropertyListSerialization.PropertyListFormat = .xml, durable: Bool = true,
      clock: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.clock = clock
      self.dataDirectory = dataDirectory
      self.documents = documents
      self.cacheCapacity = cacheCapacity
      self.cacheBudget = cacheBudget
      self.format = format
      self.durable = durable
    }
  }

  package let configuration: Configuration
  private let logger: Logger
  private let file: VersionedFile<DataModel>

  package init(configuration: Configuration, logger: Logger) {
    self.configuration = configuration
    self.logger = logger
    self.file = VersionedFile(
      documents: configuration.documents, lockName: VisitorDirectory.checklistsLockName,
      cacheCapacity: configuration.cacheCapacity, cacheBudget: configuration.cacheBudget,
      footprint: Self.modelFootprint, decode: { try ChecklistsFile.decode($0) },
      keepsInPlace: { $0 is DataModel.NewerVersion })  // a newer backend's file is not corrupt
  }

  /// The visitor's stored model, or nil when nothing is stored yet. Writes
  /// only to apply a scheduled reset that has fallen due (see
  /// `loadVersioned`) and to set an unreadable file aside.
  ///
  /// - Throws: `.unreadable` once for a file that cannot be decoded (it is
  ///   then set aside, so the next load returns nil); `.io` when a system
  ///   call fails.
  package func load(_ visitor: VisitorDirectory) throws(StoreError) -> DataModel? {
    try loadVersioned(visitor).model
  }

  /// A visitor's model and the identity of the file it came from (nil
  /// when nothing is stored): what a cache of anything derived from the
  /// model checks to know it is still current, in this process or after
  /// another one wrote.
  package struct Versioned: Sendable {
    package var model: DataModel?
    package var version: DocumentVersion?
  }

  /// As `load(_:)`, with the version of the file the model came from.
  ///
  /// A list whose scheduled reset has fallen due (by the configuration's
  /// clock) is reset first, through the one write path (`update`), so
  /// whoever reads first after a boundary writes the reset, once: the
  /// conditional write of another host's or thread's read finds the
  /// boundary applied and changes nothing. A model with no reset due costs
  /// one comparison a list.
  ///
  /// A reader that finds the owner's lock busy (`DocumentLock.Busy`: held
  /// by another host all through the wait, or already waited for by as many
  /// threads of this process as may, as when many of one owner's readers
  /// arrive at a boundary together) is not refused with `.busy` for a write
  /// it only offered to make: it answers with the reset applied in memory,
  /// under the version it was read from, and the lock's holder, or the next
  /// reader or writer, writes it. What is kept by that version elsewhere
  /// (a search index, a collection's tags) may lag until that write lands.
  package func loadVersioned(_ visitor: VisitorDirectory) throws(StoreError) -> Versioned {
    let loaded = try versioned(visitor, locked: false)
    guard var model = loaded.model, model.nextResetDue != nil else { return loaded }
    let now = configuration.clock()
    guard model.hasResetDue(at: now) else { return loaded }
    do {
      try update(visitor, at: now) { _ in }
    } catch StoreError.busy(let busy) {
      logger.debug("a scheduled reset is left to the lock's holder: \(busy)")
      model.applyDueResets(at: now)
      return Versioned(model: model, version: loaded.version)
    } catch let error as StoreError {
      throw error
    } catch {
      // Unchecking makes nothing larger but `lastReset`; a change that cannot
      // be written now is made by the next reader or writer.
      logger.warning("a scheduled reset could not be written: \(error)")
      return loaded
    }
    return try versioned(visitor, locked: false)
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
  ///   - forgettable: the deletions Recently deleted may forget to make
  ///     room under the cap: any of the owner's (the default); a change
  ///     through a share link may forget only what its own list's links
  ///     deleted (`Deletion.isThroughLink(ofList:)`).
  /// - Returns: what `change` returned.
  /// - Throws: `StoreError` (`.unreadable`, `.io`), `ChecklistsError.storageFull`
  ///   when the result would pass `Limits.maximumStoredBytes` (see
  ///   `StoredSize`; nothing is written), or whatever `change` throws.
  ///
  /// `initial` and `change` may run more than once: first on the cached
  /// model without the lock, whose result is written only if that model is
  /// still the stored one (`DocumentStore.replace(_:at:ifStill:…)`, one
  /// round trip to a database), again on the version found instead when
  /// it was not; then, if that kept failing, or the change threw or
  /// changed nothing, under the lock on the stored model, which decides.
  /// Only the run whose result is written or returned counts.
  @discardableResult
  package func update<T>(
    _ visitor: VisitorDirectory, initial: (DataModel?) -> DataModel,
    forgettable: (Deletion) -> Bool = { _ in true }, _ change: (inout DataModel) throws -> T
  ) throws -> T {
    if let written = try updateCached(visitor, initial: initial, forgettable: forgettable, change) {
      return written
    }
    do {
      // The lock file lives in the visitor's directory, so the first change
      // creates it; a load never does.
      try configuration.documents.prepareDirectory(visitor.path, durable: configuration.durable)
    } catch {
      throw StoreError.io(error)
    }
    do {
      return try configuration.documents.withLock(visitor.lockPath) { () throws -> T in
        let current = try self.versioned(visitor, locked: true)
        let stored = current.model
        var model = initial(stored)
        let result = try change(&model)
        let changed = stored.map { $0 != model } ?? (model != DataModel())
        if changed {
          let bytes = try self.encode(
            &model, for: visitor, stored: stored, storedBytes: current.version?.size,
            forgettable: forgettable)
          try self.write(bytes, model, for: visitor)
        }
        return result
      }
    } catch let error as DocumentError {
      throw StoreError.io(error)
    } catch let error as DocumentLock.Busy {
      throw StoreError.busy(error)
    }
  }

  /// `update` on the cached model, written only if it is still the stored
  /// one; when another version replaced it (another host's change), the
  /// change is worked out again on the version the write found, up to
  /// `conditionalAttempts` writes in all. What `change` returned, or nil
  /// when it must be done under the lock: nothing cached, the change threw
  /// or changed nothing, the document is gone or cannot be decoded, or it
  /// kept changing. Only what the store said about a write is thrown.
  private func updateCached<T>(
    _ visitor: VisitorDirectory, initial: (DataModel?) -> DataModel,
    forgettable: (Deletion) -> Bool, _ change: (inout DataModel) throws -> T
  ) throws -> T? {
    guard var base = file.cachedVersion(forKey: visitor.key) else { return nil }
    for _ in 0..<Self.conditionalAttempts {
      var model = initial(base.value)
      let result: T
      let bytes: Data
      do {
        result = try change(&model)
        guard model != base.value else { return nil }
        bytes = try encode(
          &model, for: visitor, stored: base.value, storedBytes: base.identity.size,
          forgettable: forgettable)
      } catch {
        return nil
      }
      let outcome: ConditionalReplace
      do {
        outcome = try configuration.documents.replace(
          bytes, at: visitor.checklistsPath, ifStill: base.identity, lockPath: visitor.lockPath,
          timeout: DocumentLock.defaultTimeout, durable: configuration.durable)
      } catch let error as DocumentError {
        throw StoreError.io(error)
      } catch let error as DocumentLock.Busy {
        throw StoreError.busy(error)
      }
      switch outcome {
      case .written(let identity):
        file.cacheWritten(model, identity: identity, replacing: base.identity, key: visitor.key)
        return result
      case .replaced(let current?):
        ServiceCounters.shared.count(.storeConflict)
        guard let adopted = file.adopt(current, replacing: base.identity, key: visitor.key)
        else { return nil }
        ServiceCounters.shared.count(.storeRetry)
        base = adopted
      case .replaced(nil):
        ServiceCounters.shared.count(.storeConflict)
        return nil
      }
    }
    return nil
  }

  /// Conditional writes of one change before it is made under the lock
  /// instead: each that finds another version follows a change made
  /// meanwhile by another host (or thread).
  private static let conditionalAttempts = 3

  /// Forgets every cached model (tests, and after a restore from backup).
  package func removeAllCached() {
    file.removeAllCached()
  }

  /// The number of cached visitors.
  package var cachedCount: Int { file.cachedCount }

  /// What the cached models are taken to cost (bytes) and how many there are.
  package var cachedUsage: (bytes: Int, entries: Int) { file.cachedUsage }

  /// A decoded model's memory from its file's length (XML, as written):
  /// about the file's own length. `bench-store --model-memory` (heap in
  /// use per cached model, mallinfo2) found 0.70 of it for 1 list of 5
  /// items (1,527 bytes), 0.96 for 1 × 20, 1.00 for 3 × 20 (11,441), and
  /// 1.04 for 1 × 200, 5 × 100 and 1 × 1,000 (174,463): the estimate
  /// takes 1.04, so it errs by over-counting small models.
  package static let modelFootprint = MemoryFootprint(perStoredKiB: 1_065, perEntry: 0)

  // MARK: Internals

  /// The model on disk now; `locked` when the caller holds the visitor's
  /// lock (an unreadable file is then set aside without taking it again).
  private func versioned(_ visitor: VisitorDirectory, locked: Bool) throws(StoreError)
    -> Versioned
  {
    do {
      let path = visitor.checklistsPath
      let version =
        locked
        ? try file.loadLocked(path, key: visitor.key) : try file.load(path, key: visitor.key)
      return Versioned(model: version?.value, version: version?.identity)
    } catch {
      throw storeError(error)
    }
  }

  /// The store's error for a failed load; an unreadable file (set aside)
  /// and one of a newer version (left in place) are logged.
  private func storeError(_ error: VersionedFileError) -> StoreError {
    switch error {
    case .io(let error):
      return .io(error)
    case .busy(let busy):
      return .busy(busy)
    case .setAside(let path, let keptAs, let reason):
      logger.error(
        "unreadable checklists file set aside",
        metadata: ["path": "\(path)", "keptAs": "\(keptAs)", "reason": "\(reason)"])
      return .unreadable(path: path, keptAs: keptAs)
    case .leftInPlace(let path, let reason):
      logger.error(
        "checklists file of a newer version", metadata: ["path": "\(path)", "reason": "\(reason)"])
      return .io(
        DocumentError(operation: "decode", path: path, reason: .failed, detail: "\(reason)"))
    case .unsettled(let path):
      return .io(DocumentError.unsettled(path))
    }
  }

  /// `model` encoded to replace `stored` (of `storedBytes`). A full
  /// visitor's Recently deleted makes room, oldest first (of the
  /// `forgettable` ones), so that a deletion (which keeps what went) is
  /// never refused. The XML is written once, stopping at the cap; only a
  /// model that passes it is counted to make room (`StoredSize.makeRoom`)
  /// and then written.
  ///
  /// - Throws: `ChecklistsError.storageFull` when even so it would pass
  ///   `Limits.maximumStoredBytes` (see `StoredSize`).
  private func encode(
    _ model: inout DataModel, for visitor: VisitorDirectory, stored: DataModel?,
    storedBytes: Int64?, forgettable: (Deletion) -> Bool
  ) throws -> Data {
    model.recordChanges(since: stored)
    // The file's length is the XML count only when the file is XML.
    let knownBytes = configuration.format == .xml ? storedBytes : nil
    let ceiling = StoredSize.ceiling(replacing: stored, storedBytes: knownBytes)
    if configuration.format == .xml,
      let fitting = ChecklistsXMLWriter.document(model, countingAtMost: ceiling)
    {
      return Data(fitting)
    }
    try StoredSize.makeRoom(in: &model, ceiling: ceiling, forgetting: forgettable)
    return try encode(model, for: visitor)
  }

  private func encode(_ model: DataModel, for visitor: VisitorDirectory) throws -> Data {
    do {
      return try ChecklistsFile.encode(model, format: configuration.format)
    } catch {
      throw DocumentError(
        operation: "encode", path: visitor.checklistsPath, reason: .failed, detail: "\(error)")
    }
  }

  private func write(_ bytes: Data, _ model: DataModel, for visitor: VisitorDirectory) throws {
    let path = visitor.checklistsPath
    let identity = try configuration.documents.replace(
      bytes, at: path, durable: configuration.durable)
    file.cacheWritten(model, identity: identity, key: visitor.key)
  }
}
