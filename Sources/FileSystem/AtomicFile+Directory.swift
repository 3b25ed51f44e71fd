extension AtomicFile {
  /// Creates `path` and its missing parents, each private (0700). The one
  /// implementation for the store and the preferences, which both create a
  /// visitor's directory (`users/<shard>/<key>`) with their first change.
  ///
  /// With `durable`, each directory made here is flushed, and so is its
  /// parent, before the caller writes into it: a new directory's entry lives
  /// in its parent, and on ext4 without a journal nothing else writes that
  /// entry out, so a power loss after an acknowledged first change could
  /// otherwise lose the whole directory, the flushed file inside included.
  /// A `mkdir` that loses a race (`EEXIST`) flushes too: the winner may not
  /// have flushed yet when this caller goes on to acknowledge a change.
  ///
  /// - Parameter durable: when false, skips the `fsync` calls (tests and
  ///   benchmarks only).
  package static func createDirectory(_ path: String, durable: Bool) throws(FileError) {
    if (try? system_stat(path)) != nil { return }
    let parent = split(path).directory
    if parent != path { try createDirectory(parent, durable: durable) }
    do { try system_mkdir(path, 0o700) } catch  where error != .fileExists {
      throw FileError(operation: "mkdir", path: path, errno: error)
    } catch {}
    guard durable else { return }
    try syncDirectory(path)
    try syncDirectory(parent)
  }
}
