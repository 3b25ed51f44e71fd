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
    let target = asideName(for: path, isTaken: system_exists)
    do { try system_rename(path, target) } catch {
      throw FileError(operation: "rename", path: path, errno: error)
    }
    if durable { try AtomicFile.syncDirectory(AtomicFile.split(path).directory) }
    return target
  }

  /// The name `name` takes when set aside, in whatever store keeps it:
  /// `<name>.corrupt-<UTC time>`, with `-2`, `-3` … while `isTaken` says
  /// that name is taken.
  package static func asideName(for name: String, isTaken: (String) -> Bool) -> String {
    let base = "\(name).corrupt-\(system_utc_timestamp())"
    var target = base
    var counter = 1
    while isTaken(target) {
      counter += 1
      target = "\(base)-\(counter)"
    }
    return target
  }
}
