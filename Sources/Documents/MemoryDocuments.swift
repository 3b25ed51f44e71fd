import Foundation
import Support

/// Documents in this process's memory: the seam's smallest engine, for
/// tests of the code above it (no files, no server) and as the reference
/// of what an engine must do. Nothing outlives the process.
///
/// Versions come from one counter, so one never repeats (as a database's);
/// a directory exists once a document was stored in it and has the
/// version of its last change; a lock is a recursive lock per lock path,
/// admitted as every engine's (`DocumentLock.admitting`).
package final class MemoryDocuments: DocumentStore {
  private struct State: Sendable {
    var documents: [String: DocumentSnapshot] = [:]
    var directories: [String: UInt64] = [:]
    var lastVersion: UInt64 = 0
  }

  private let state = LockedValue(State())
  private let locks = LockedValue<[String: NSRecursiveLock]>([:])

  package init() {}

  package func identity(of path: String) throws(DocumentError) -> DocumentVersion? {
    state.withLock { $0.documents[path]?.version }
  }

  package func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot? {
    state.withLock { $0.documents[path] }
  }

  @discardableResult
  package func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    state.withLock { Self.store(bytes, at: path, in: &$0) }
  }

  @discardableResult
  package func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    try write(bytes, to: path, durable: durable)
  }

  package func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool {
    state.withLock { state in
      guard state.documents[path] == nil else { return false }
      Self.store(bytes, at: path, in: &state)
      return true
    }
  }

  package func remove(_ path: String, durable: Bool) throws(DocumentError) {
    state.withLock { state in
      guard state.documents.removeValue(forKey: path) != nil else { return }
      state.lastVersion += 1
      state.directories[DocumentName.split(path).directory] = state.lastVersion
    }
  }

  /// Nothing to make: a directory comes with its first document.
  package func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError) {}

  package func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    try DocumentLock.admitting(lockPath) {
      let lock = locks.withLock { locks in
        if let lock = locks[lockPath] { return lock }
        let lock = NSRecursiveLock()
        locks[lockPath] = lock
        return lock
      }
      let seconds =
        Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
      guard lock.lock(before: Date(timeIntervalSinceNow: seconds)) else {
        throw DocumentLock.Busy(path: lockPath, reason: .timedOut)
      }
      defer { lock.unlock() }
      return try body()
    }
  }

  package func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String {
    let moved = state.withLock { state -> String? in
      guard let document = state.documents.removeValue(forKey: path) else { return nil }
      let target = AsideName.for(path) { state.documents[$0] != nil }
      state.documents[target] = document
      state.lastVersion += 1
      state.directories[DocumentName.split(path).directory] = state.lastVersion
      return target
    }
    guard let moved else {
      throw DocumentError(
        operation: "set aside", path: path, reason: .notFound, detail: "no such document")
    }
    return moved
  }

  /// Nothing to note: activity matters to `prune`, and memory is gone with
  /// the process.
  package func markActive(_ lockPath: String) {}

  package func identity(ofDirectory directory: String) -> DocumentVersion? {
    guard let number = state.withLock({ $0.directories[directory] }) else { return nil }
    return DocumentVersion(
      place: 0, number: number, size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0)
  }

  package func directoryExists(_ directory: String) throws(DocumentError) -> Bool {
    state.withLock { $0.directories[directory] != nil }
  }

  /// The documents in `directory` and the next component of every
  /// directory under it, sorted (what a walk of the files finds).
  package func entries(ofDirectory directory: String) -> [String] {
    let prefix = directory + "/"
    let names = state.withLock { state in
      state.documents.keys.compactMap { path -> String? in
        guard path.hasPrefix(prefix) else { return nil }
        return path.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
      }
    }
    return Set(names).sorted()
  }

  /// Stores `bytes` as the next version, which is also its directory's.
  private static func store(_ bytes: Data, at path: String, in state: inout State)
    -> DocumentVersion
  {
    state.lastVersion += 1
    let now = Date().timeIntervalSince1970
    let seconds = now.rounded(.down)
    let version = DocumentVersion(
      place: 0, number: state.lastVersion, size: Int64(bytes.count),
      modifiedSeconds: Int64(seconds), modifiedNanoseconds: Int64((now - seconds) * 1e9))
    state.documents[path] = DocumentSnapshot(contents: bytes, version: version)
    state.directories[DocumentName.split(path).directory] = state.lastVersion
    return version
  }
}
