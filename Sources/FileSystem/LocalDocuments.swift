import Foundation

/// Documents as files in the data directory: the default store, with
/// nothing to set up. Each write goes through `AtomicFile`, each lock is a
/// `flock` (`FileLock`), so several processes on one machine may share the
/// directory; several machines may not (`flock` over a network file system
/// is unreliable).
package struct LocalDocuments: DocumentStore {
  package init() {}

  package func identity(of path: String) throws(FileError) -> FileIdentity? {
    try FileIdentity.of(path)
  }

  package func snapshot(of path: String) throws(FileError) -> FileSnapshot? {
    try FileSnapshot.read(path)
  }

  @discardableResult
  package func write(_ bytes: Data, to path: String, durable: Bool) throws(FileError)
    -> FileIdentity
  {
    try AtomicFile.write(bytes, to: path, durable: durable)
    return try written(path)
  }

  @discardableResult
  package func replace(_ bytes: Data, at path: String, durable: Bool) throws(FileError)
    -> FileIdentity
  {
    try AtomicFile.replaceReusingSpare(bytes, at: path, durable: durable)
    return try written(path)
  }

  /// The identity of the file just written: a `stat`, which sees the
  /// version written while the caller holds the file's lock.
  private func written(_ path: String) throws(FileError) -> FileIdentity {
    guard let identity = try FileIdentity.of(path) else {
      throw FileError(operation: "stat", path: path, errno: .noSuchFileOrDirectory)
    }
    return identity
  }

  /// Writes a private candidate and `link`s it to `path`, which fails for
  /// all but the first of several processes doing the same.
  package func create(_ bytes: Data, at path: String, durable: Bool) throws(FileError) -> Bool {
    let (directory, name) = AtomicFile.split(path)
    let process = ProcessInfo.processInfo.processIdentifier
    let candidate = "\(directory)/.\(name).new-\(process)-\(UInt64.random(in: 0...UInt64.max))"
    try AtomicFile.write(bytes, to: candidate, durable: durable)
    defer { try? FileNames.remove(candidate) }
    let created = try FileNames.link(candidate, as: path)
    if created, durable { try AtomicFile.syncDirectory(directory) }
    return created
  }

  package func remove(_ path: String, durable: Bool) throws(FileError) {
    try FileNames.remove(path)
    if durable { try AtomicFile.syncDirectory(AtomicFile.split(path).directory) }
  }

  package func prepareDirectory(_ directory: String, durable: Bool) throws(FileError) {
    try AtomicFile.createDirectory(directory, durable: durable)
  }

  package func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    try FileLock.withLock(lockPath, timeout: timeout, body)
  }

  package func setAside(_ path: String, durable: Bool) throws(FileError) -> String {
    try CorruptFile.setAside(path, durable: durable)
  }

  package func markActive(_ lockPath: String) {
    FileNames.markModifiedNow(lockPath)
  }

  /// The directory's own identity: every write, removal or setting aside
  /// renames or unlinks a name in it, which moves its modification time.
  package func identity(ofDirectory directory: String) -> FileIdentity? {
    try? FileIdentity.of(directory)
  }

  package func directoryExists(_ directory: String) throws(FileError) -> Bool {
    try FileStatus.of(directory) != nil
  }

  package func entries(ofDirectory directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }
}
