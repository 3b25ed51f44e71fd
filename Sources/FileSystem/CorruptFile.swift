import Documents

/// A file that cannot be read is never overwritten or deleted: it is moved
/// aside, next to where it was, for someone to recover.
package enum CorruptFile {
  /// Renames `path` to `<path>.corrupt-<UTC time>` (with a counter when
  /// that name is taken, so an earlier one is never overwritten) and
  /// returns the new path. The caller holds the lock of the file's owner.
  ///
  /// - Parameter durable: also flush the directory, so the rename survives
  ///   a power loss.
  package static func setAside(_ path: String, durable: Bool = false) throws(FileError) -> String {
    let target = AsideName.for(path, isTaken: system_exists)
    do { try system_rename(path, target) } catch {
      throw FileError(operation: "rename", path: path, errno: error)
    }
    if durable { try AtomicFile.syncDirectory(AtomicFile.split(path).directory) }
    return target
  }
}
