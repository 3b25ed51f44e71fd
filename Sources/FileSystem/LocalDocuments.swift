import Documents
import Foundation

/// Documents as files in the data directory: the default store, with
/// nothing to set up. Each write goes through `AtomicFile`, each lock is a
/// `flock` (`FileLock`), so several processes on one machine may share the
/// directory; several machines may not (`flock` over a network file system
/// is unreliable). A failed system call is told as the seam's
/// `DocumentError` (`FileError.documentError`: the same words).
package struct LocalDocuments: DocumentStore {
  package init() {}

  package func identity(of path: String) throws(DocumentError) -> DocumentVersion? {
    try told { () throws(FileError) in try FileIdentity.of(path)?.documentVersion }
  }

  package func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot? {
    try told { () throws(FileError) in try FileSnapshot.read(path)?.documentSnapshot }
  }

  @discardableResult
  package func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    try told { () throws(FileError) in
      try AtomicFile.write(bytes, to: path, durable: durable)
      return try written(path)
    }
  }

  @discardableResult
  package func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion
  {
    try told { () throws(FileError) in
      try AtomicFile.replaceReusingSpare(bytes, at: path, durable: durable)
      return try written(path)
    }
  }

  /// The version of the file just written: a `stat`, which sees the
  /// version written while the caller holds the file's lock.
  private func written(_ path: String) throws(FileError) -> DocumentVersion {
    guard let identity = try FileIdentity.of(path) else {
      throw FileError(operation: "stat", path: path, errno: .noSuchFileOrDirectory)
    }
    return identity.documentVersion
  }

  /// Writes a private candidate and `link`s it to `path`, which fails for
  /// all but the first of several processes doing the same.
  package func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool {
    try told { () throws(FileError) in
      let (directory, name) = AtomicFile.split(path)
      let process = ProcessInfo.processInfo.processIdentifier
      let candidate = "\(directory)/.\(name).new-\(process)-\(UInt64.random(in: 0...UInt64.max))"
      try AtomicFile.write(bytes, to: candidate, durable: durable)
      defer { try? FileNames.remove(candidate) }
      let created = try FileNames.link(candidate, as: path)
      if created, durable { try AtomicFile.syncDirectory(directory) }
      return created
    }
  }

  package func remove(_ path: String, durable: Bool) throws(DocumentError) {
    try told { () throws(FileError) in
      try FileNames.remove(path)
      if durable { try AtomicFile.syncDirectory(AtomicFile.split(path).directory) }
    }
  }

  package func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError) {
    try told { () throws(FileError) in try AtomicFile.createDirectory(directory, durable: durable) }
  }

  /// A `flock` (`FileLock`); a lock file that cannot be opened or locked,
  /// or a file's failure in `body`, is told as a `DocumentError`.
  package func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    do {
      return try FileLock.withLock(lockPath, timeout: timeout, body)
    } catch let error as FileError {
      throw error.documentError
    }
  }

  package func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String {
    try told { () throws(FileError) in try CorruptFile.setAside(path, durable: durable) }
  }

  package func markActive(_ lockPath: String) {
    FileNames.markModifiedNow(lockPath)
  }

  /// The directory's own identity: every write, removal or setting aside
  /// renames or unlinks a name in it, which moves its modification time.
  package func identity(ofDirectory directory: String) -> DocumentVersion? {
    (try? FileIdentity.of(directory))??.documentVersion
  }

  package func directoryExists(_ directory: String) throws(DocumentError) -> Bool {
    try told { () throws(FileError) in try FileStatus.of(directory) != nil }
  }

  package func entries(ofDirectory directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// `body`'s value, its `FileError` told as the seam's.
  private func told<T>(_ body: () throws(FileError) -> T) throws(DocumentError) -> T {
    do { return try body() } catch { throw error.documentError }
  }
}
