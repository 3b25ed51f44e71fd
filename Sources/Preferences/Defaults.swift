import Documents
import FileSystem
import Foundation
import Logging
import PropertyList

/// The process-wide defaults: the registration domain, which keys live in
/// cookies, the observers, and a cache of visitors' persistent domains.
///
/// One instance serves every request; each request opens a
/// `VisitorDefaults` scope with `visitor(directory:cookieValues:)`.
/// Thread-safe: its state sits behind one lock, held only for dictionary
/// operations, never across file I/O; the parsed domains are kept by
/// `VersionedFile`, keyed by the visitor's directory.
package final class Defaults: @unchecked Sendable {
  let logger: Logger
  let format: PropertyListSerialization.PropertyListFormat
  let durable: Bool
  /// Where `Preferences.plist` files are kept.
  package let documents: any DocumentStore
  /// Each visitor's `Preferences.plist`, parsed.
  private let file: VersionedFile<[String: PropertyListValue]>

  /// Guards the state below; its condition signals that a commit cached
  /// what it wrote.
  private let lock = NSCondition()
  private var registration: [String: PropertyListValue] = [:]
  private var cookieKinds: [String: CookieValueKind] = [:]
  private var observers: [UInt64: @Sendable (PreferencesChange) -> Void] = [:]
  private var nextObserver: UInt64 = 0
  private var committers: [String: Committer] = [:]
  private var writes = 0

  /// - Parameters:
  ///   - logger: where unreadable files and failed writes are reported.
  ///   - format: how files are written (`.xml`, the default, or `.binary`);
  ///     both are read whatever this says.
  ///   - durable: when false, writes skip `fsync` (tests and benchmarks only).
  ///   - cacheCapacity: how many visitors' domains stay parsed in memory.
  ///   - documents: where the files are kept (the data directory's files
  ///     unless told otherwise).
  package init(
    logger: Logger, format: PropertyListSerialization.PropertyListFormat = .xml,
    durable: Bool = true, documents: any DocumentStore = LocalDocuments(),
    cacheCapacity: Int = VersionedFile<Data>.defaultCapacity
  ) {
    self.logger = logger
    self.format = format
    self.durable = durable
    self.documents = documents
    self.file = VersionedFile(
      documents: documents, lockName: PreferencesFile.lockName, cacheCapacity: cacheCapacity,
      setAsideDurably: durable,
      decode: { bytes in
        guard let domain = PreferencesFile.decode(bytes) else { throw PreferencesFile.NotADomain() }
        return domain
      })
  }

  /// Merges `defaults` into the registration domain (later values win). It
  /// lives in memory only. A value that is not a property-list value is
  /// logged and skipped.
  package func register(defaults: [String: Any]) {
    var validated: [String: PropertyListValue] = [:]
    for (key, value) in defaults {
      do throws(PreferencesError) {
        validated[key] = try PropertyListValue(validating: value, key: key)
      } catch {
        logger.error("register(defaults:) skipped a value", metadata: ["error": "\(error)"])
      }
    }
    lock.withLock { registration.merge(validated) { _, new in new } }
  }

  /// Declares that `key` lives in a cookie: the web layer reads its value
  /// from the request and sends its changes (`CookieChange`) back.
  package func declareCookieBacked(_ key: String, as kind: CookieValueKind) {
    lock.withLock { cookieKinds[key] = kind }
  }

  /// Opens one request's scope of a visitor's defaults.
  ///
  /// - Parameters:
  ///   - directory: the visitor's directory, where `Preferences.plist` lives
  ///     (created on the first write); nil for a visitor without one, who
  ///     then sees cookies and registered defaults only, and whose commit of
  ///     a persistent change throws `PreferencesError.noDirectory`.
  ///   - cookieValues: the value of each cookie-backed key's cookie the
  ///     request carried, by key, as it came (a malformed one reads as
  ///     absent).
  package func visitor(directory: String?, cookieValues: [String: String] = [:])
    -> VisitorDefaults
  {
    let (registration, cookieKinds) = lock.withLock { (self.registration, self.cookieKinds) }
    return VisitorDefaults(
      defaults: self, directory: directory, cookieValues: cookieValues,
      registration: registration, cookieKinds: cookieKinds)
  }

  /// Calls `observer` once for every effective change a commit made, after
  /// the change is on disk, on the committing thread.
  package func addObserver(_ observer: @escaping @Sendable (PreferencesChange) -> Void)
    -> ObserverToken
  {
    lock.withLock {
      nextObserver += 1
      observers[nextObserver] = observer
      return ObserverToken(id: nextObserver)
    }
  }

  package func removeObserver(_ token: ObserverToken) {
    _ = lock.withLock { observers.removeValue(forKey: token.id) }
  }

  // MARK: Persistent domains by name (the visitor's directory)

  /// The persistent domain stored in the visitor directory `name`, or nil
  /// when it has none (an unreadable file also reads as nil).
  package func persistentDomain(forName name: String) -> [String: Any]? {
    let path = PreferencesFile.path(inDirectory: name)
    guard (try? documents.identity(of: path)) != nil else { return nil }
    let loaded = loadDomain(name)
    if loaded.problem != nil { return nil }
    return loaded.domain.mapValues(\.foundationValue)
  }

  /// Replaces the visitor's persistent domain, writes it, and notifies once.
  package func setPersistentDomain(_ domain: [String: Any], forName name: String)
    throws(PreferencesError)
  {
    let scope = visitor(directory: name)
    try scope.replacePersistentDomain(domain)
    _ = try scope.commit()
  }

  /// Empties the visitor's persistent domain, writes it, and notifies once.
  package func removePersistentDomain(forName name: String) throws(PreferencesError) {
    let scope = visitor(directory: name)
    try scope.replacePersistentDomain([:])
    _ = try scope.commit()
  }

  /// Marks the visitor as seen now on the lock file of their persistent
  /// domain in `directory` (a renewal of their cookie; see `checklists
  /// check`). Metadata only; nothing happens when there is no such file.
  package func markActive(directory: String) {
    documents.markActive(PreferencesFile.lockPath(inDirectory: directory))
  }

  // MARK: Internals

  /// How many files this instance has written (for tests).
  var writeCount: Int { lock.withLock { writes } }

  func notify(_ changes: [PreferencesChange]) {
    guard !changes.isEmpty else { return }
    let current = lock.withLock { observers.sorted { $0.key < $1.key }.map(\.value) }
    for change in changes {
      for observer in current { observer(change) }
    }
  }

  /// A persistent domain as read for one request.
  struct LoadedDomain {
    var domain: [String: PropertyListValue] = [:]
    /// A sentence for the visitor when the file could not be read.
    var problem: String?
    /// Set when the store could not be reached (a database away): not a
    /// damaged file, and nothing should be applied on the defaults.
    var unavailable: PreferencesError?
  }

  /// A domain for reading, from the cache when the file's identity is the
  /// cached one. An unparsable file is kept aside and reads as empty.
  func loadDomain(_ directory: String) -> LoadedDomain {
    let path = PreferencesFile.path(inDirectory: directory)
    do {
      let version = try file.load(path, key: directory, attempts: 6) { attempt, seen in
        attempt < 4 && awaitCacheUpdate(directory, from: seen)
      }
      return LoadedDomain(domain: version?.value ?? [:])
    } catch {
      if case .io(let failure) = error, failure.isUnavailable {
        // Not logged: the store logs each outage once.
        return LoadedDomain(
          problem: Defaults.unreadableMessage, unavailable: .unavailable("\(failure)"))
      }
      return LoadedDomain(problem: problem(error, path: path))
    }
  }

  /// When a commit of this process is under way for `directory`, waits
  /// (10 ms at most a call) until it has cached what it wrote: the file was most likely
  /// renamed by it a moment ago, and parsing that file again would cost far
  /// more than the wait. False when there is nothing to wait for.
  private func awaitCacheUpdate(_ directory: String, from seen: DocumentVersion?) -> Bool {
    lock.withLock {
      guard committers[directory] != nil else { return false }
      // A commit caches, then signals under this lock: held from here to
      // the wait, no signal can come in between.
      if file.cachedIdentity(forKey: directory) != seen { return true }
      _ = lock.wait(until: Date(timeIntervalSinceNow: 0.01))
      return true
    }
  }

  /// What the visitor is told when their file cannot be loaded; a file
  /// that does not parse was kept aside.
  private func problem(_ error: VersionedFileError, path: String) -> String {
    if case .setAside(_, let keptAs, _) = error {
      return keptAside((keptAs as NSString).lastPathComponent, path: path)
    }
    logger.error("preferences unreadable", metadata: ["error": "\(error)"])
    return Defaults.unreadableMessage
  }

  static let unreadableMessage =
    "Your saved preferences could not be read; the defaults apply for now."

  private func keptAside(_ name: String, path: String) -> String {
    logger.error(
      "preferences file does not parse; kept aside",
      metadata: ["path": "\(path)", "keptAs": "\(name)"])
    return "Your saved preferences could not be read. The file was kept aside as \(name); "
      + "the defaults apply until you change a setting."
  }

  /// What a commit did for one request.
  struct CommitOutcome {
    /// The domain as it is on disk after the commit.
    var domain: [String: PropertyListValue]
    /// For each change of the request, the keys it changed.
    var effective: [[String]]
    var problem: String?
  }

  /// One request's changes waiting for the visitor's lock.
  private final class Pending: @unchecked Sendable {
    let changes: [PersistentChange]
    var outcome: Result<CommitOutcome, PreferencesError>?
    init(_ changes: [PersistentChange]) { self.changes = changes }
  }

  /// Serialises one process's commits to one visitor. Requests that arrive
  /// while a commit is under way are written together by the next one to
  /// run (group commit): each is still written once, none waits for more
  /// than one write after its own turn.
  private final class Committer: @unchecked Sendable {
    let turn = NSLock()
    var pending: [Pending] = []
    var users = 0
  }

  /// Applies a request's changes to the visitor's file under its lock.
  func commit(directory: String, changes: [PersistentChange]) throws(PreferencesError)
    -> CommitOutcome
  {
    let request = Pending(changes)
    let committer = lock.withLock {
      let committer = committers[directory] ?? Committer()
      committers[directory] = committer
      committer.users += 1
      committer.pending.append(request)
      return committer
    }
    defer {
      lock.withLock {
        committer.users -= 1
        if committer.users == 0 { committers[directory] = nil }
      }
    }
    committer.turn.lock()
    defer { committer.turn.unlock() }
    if request.outcome == nil {
      let batch = lock.withLock {
        let batch = committer.pending
        committer.pending = []
        return batch
      }
      write(batch, directory: directory)
    }
    return try request.outcome!.get()
  }

  private func write(_ batch: [Pending], directory: String) {
    let path = PreferencesFile.path(inDirectory: directory)
    do {
      try documents.prepareDirectory(directory, durable: durable)
      // Outcomes are told only once the lock's body has returned: a
      // database acknowledges the write at that point, not before.
      let outcomes = try documents.withLock(PreferencesFile.lockPath(inDirectory: directory)) {
        () throws -> [CommitOutcome] in
        let (fresh, problem) = try loadLocked(directory, path: path)
        var domain = fresh
        var effective: [[[String]]] = []
        var touched = Set<String>()
        for request in batch {
          let keys = request.changes.map { $0.apply(to: &domain) }
          for changed in keys { touched.formUnion(changed) }
          effective.append(keys)
        }
        // Set then removed in one batch is no change: nothing to write.
        if touched.contains(where: { domain[$0] != fresh[$0] }) {
          let bytes = try PreferencesFile.encode(domain, format: format)
          let identity = try documents.write(bytes, to: path, durable: durable)
          file.cacheWritten(domain, identity: identity, key: directory)
          lock.withLock {
            writes += 1
            lock.broadcast()
          }
        }
        return effective.map { CommitOutcome(domain: domain, effective: $0, problem: problem) }
      }
      for (request, outcome) in zip(batch, outcomes) { request.outcome = .success(outcome) }
    } catch {
      let failure: PreferencesError
      switch error {
      case let error as PreferencesError: failure = error
      case let error as DocumentError where error.isUnavailable: failure = .unavailable("\(error)")
      default: failure = .io("\(error)")
      }
      logger.error("preferences not written", metadata: ["error": "\(failure)"])
      for request in batch where request.outcome == nil { request.outcome = .failure(failure) }
    }
  }

  /// The file's current domain, read while holding the visitor's lock; an
  /// unparsable file is kept aside and the commit starts from empty.
  private func loadLocked(_ directory: String, path: String) throws -> (
    [String: PropertyListValue], String?
  ) {
    do {
      return (try file.loadLocked(path, key: directory)?.value ?? [:], nil)
    } catch {
      guard case .setAside(_, let keptAs, _) = error else { throw error }
      return ([:], keptAside((keptAs as NSString).lastPathComponent, path: path))
    }
  }
}
