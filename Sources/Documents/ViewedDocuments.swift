import Foundation
import Support
import Synchronization

/// A request's view of its owner's directory: the directory's version read
/// once, before anything in it is read, and settled (changed long enough
/// ago that any later change gives it another version: see the response
/// memo's `Version`). While the view is open, `ViewedDocuments` answers
/// the version of a document in that directory from what it saw under the
/// same directory version, without asking the engine.
///
/// Every write, removal or setting aside in a directory renames or unlinks
/// a name in it (files) or takes a new number from the one sequence
/// (a database), so a document seen under a directory version is that
/// version still while the directory is. This is what the response memo
/// already stakes a whole kept page on; here it spares a computed page a
/// `stat` for each of its owner's documents (three a page: ~2.7 µs of a
/// 17 µs page, most of it the kernel walking the path; `perf`).
package final class DirectoryView: Sendable {
  /// The view of the request running on this thread, if it took one.
  @TaskLocal package static var current: DirectoryView?

  package let directory: String
  package let version: DocumentVersion
  /// False once the request took a lock or wrote: a document it changed,
  /// or read under its lock, is the engine's to tell from then on.
  private let open = Atomic<Bool>(true)

  package init(directory: String, version: DocumentVersion) {
    self.directory = directory
    self.version = version
  }

  var isOpen: Bool { open.load(ordering: .relaxed) }

  func close() { open.store(false, ordering: .relaxed) }

  /// Whether `path` names a document directly in the viewed directory.
  /// Compared as bytes: `String.hasPrefix` compares characters (~500
  /// instructions a path of a visitor's document, callgrind).
  package func holds(_ path: String) -> Bool {
    var path = path
    var directory = directory
    return path.withUTF8 { path in
      directory.withUTF8 { directory in
        let slash = UInt8(ascii: "/")
        guard path.count > directory.count + 1, path[directory.count] == slash,
          memcmp(path.baseAddress!, directory.baseAddress!, directory.count) == 0
        else { return false }
        return !path[(directory.count + 1)...].contains(slash)
      }
    }
  }

  /// `body` run with `view` as the current one (with none, as it is).
  package static func reading<T>(_ view: DirectoryView?, _ body: () throws -> T) rethrows -> T {
    guard let view else { return try body() }
    return try $current.withValue(view, operation: body)
  }
}

/// A document store that answers, for a request with an open
/// `DirectoryView`, the version of a document in the viewed directory
/// from what it saw of it under the same directory version; everything
/// else is the engine's. A lock taken or a write made through it closes
/// the current view, so that whatever a request does under a lock sees
/// the engine's own answers.
package final class ViewedDocuments: DocumentStore {
  /// What `identity(of:)` answered for a document (nil: there was none),
  /// and under which version of its directory.
  struct Seen: Sendable {
    let version: DocumentVersion?
    let directoryVersion: DocumentVersion
  }

  package let engine: any DocumentStore
  private let seen: LockedValue<LRUCache<String, Seen>>

  /// - Parameter capacity: how many documents' versions are remembered.
  package init(_ engine: any DocumentStore, capacity: Int) {
    self.engine = engine
    seen = LockedValue(LRUCache(capacity: capacity))
  }

  package func identity(of path: String) throws(DocumentError) -> DocumentVersion? {
    guard let view = DirectoryView.current, view.isOpen, view.holds(path) else {
      return try engine.identity(of: path)
    }
    if let found = seen.withLock({ $0.value(forKey: path) }),
      found.directoryVersion == view.version
    {
      return found.version
    }
    let version = try engine.identity(of: path)
    seen.withLock {
      $0.setValue(Seen(version: version, directoryVersion: view.version), forKey: path)
    }
    return version
  }

  package func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot? {
    try engine.snapshot(of: path)
  }

  package func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    DirectoryView.current?.close()
    return try engine.write(bytes, to: path, durable: durable)
  }

  package func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    DirectoryView.current?.close()
    return try engine.replace(bytes, at: path, durable: durable)
  }

  package func replace(
    _ bytes: Data, at path: String, ifStill expected: DocumentVersion, lockPath: String,
    timeout: Duration, durable: Bool
  ) throws -> ConditionalReplace {
    DirectoryView.current?.close()
    return try engine.replace(
      bytes, at: path, ifStill: expected, lockPath: lockPath, timeout: timeout, durable: durable)
  }

  package func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool {
    DirectoryView.current?.close()
    return try engine.create(bytes, at: path, durable: durable)
  }

  package func remove(_ path: String, durable: Bool) throws(DocumentError) {
    DirectoryView.current?.close()
    try engine.remove(path, durable: durable)
  }

  package func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError) {
    DirectoryView.current?.close()
    try engine.prepareDirectory(directory, durable: durable)
  }

  package func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    DirectoryView.current?.close()
    return try engine.withLock(lockPath, timeout: timeout, body)
  }

  package func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String {
    DirectoryView.current?.close()
    return try engine.setAside(path, durable: durable)
  }

  package func markActive(_ lockPath: String) { engine.markActive(lockPath) }

  package func identity(ofDirectory directory: String) -> DocumentVersion? {
    engine.identity(ofDirectory: directory)
  }

  package func directoryExists(_ directory: String) throws(DocumentError) -> Bool {
    try engine.directoryExists(directory)
  }

  package func entries(ofDirectory directory: String) -> [String] {
    engine.entries(ofDirectory: directory)
  }

  package func prepareThread() throws(DocumentError) { try engine.prepareThread() }
}
