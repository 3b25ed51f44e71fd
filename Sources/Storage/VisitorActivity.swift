import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// When each visitor was last seen, told by the modification times of
/// their files: every write puts a new version of a file in place, and a
/// returning visitor whose cookie is renewed (at most once a day) has their
/// lock files' times set to the present. So a visitor who keeps coming back
/// looks active even if they never change anything, and `checklists check`
/// and `prune` can tell who has gone.
public enum VisitorActivity {
  /// Marks the visitor as seen now, on the lock files that every visitor
  /// directory holds (each is made by the first write under it and never
  /// written). Nothing happens when the visitor has no directory: one who
  /// never changed anything owns nothing on disk.
  ///
  /// Metadata only: no file is created or written, so a crawler's requests
  /// still cost no disk, and the directory itself is untouched, so the
  /// pages kept for the visitor stay valid.
  public static func markActive(_ visitor: VisitorDirectory) {
    _ = utimensat(AT_FDCWD, visitor.lockPath, nil, 0)
    _ = utimensat(AT_FDCWD, visitor.preferencesLockPath, nil, 0)
  }

  /// One visitor's directory and when it was last active.
  public struct Visitor: Sendable, Equatable {
    public var directory: String
    /// The latest modification time of its files (of the directory itself
    /// only when it holds none).
    public var lastActive: Date
    /// The bytes of its files.
    public var bytes: Int64

    /// Whole days between `lastActive` and `now`.
    public func idleDays(now: Date) -> Int {
      max(0, Int(now.timeIntervalSince(lastActive) / 86_400))
    }
  }

  /// Every visitor directory under `dataDirectory/users`, in path order
  /// (what `DataCheck` reports as misplaced is left out).
  public static func visitors(dataDirectory: String) -> [Visitor] {
    directories(dataDirectory: dataDirectory).compactMap { visitor(at: $0.path) }
  }

  private static func directories(dataDirectory: String) -> [VisitorDirectory] {
    let users = dataDirectory + "/users"
    var found: [VisitorDirectory] = []
    for shard in VisitorDirectory.sortedEntries(users) where VisitorDirectory.isShard(shard) {
      for key in VisitorDirectory.sortedEntries("\(users)/\(shard)")
      where VisitorDirectory.isKey(key, inShard: shard) {
        found.append(VisitorDirectory(dataDirectory: dataDirectory, key: key))
      }
    }
    return found
  }

  /// The visitor whose directory is `path`, or nil when there is none.
  ///
  /// - Parameter ignoring: names of files whose times do not count (the
  ///   lock files `prune` itself had to create).
  static func visitor(at path: String, ignoring: Set<String> = []) -> Visitor? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    var latest: timespec?
    var bytes: Int64 = 0
    for name in VisitorDirectory.sortedEntries(path) where !ignoring.contains(name) {
      var file = stat()
      guard stat("\(path)/\(name)", &file) == 0 else { continue }
      bytes += Int64(file.st_size)
      if let current = latest,
        (file.st_mtim.tv_sec, file.st_mtim.tv_nsec) <= (current.tv_sec, current.tv_nsec)
      {
        continue
      }
      latest = file.st_mtim
    }
    // An empty directory (a first write that failed) counts from its own time.
    let time = latest ?? info.st_mtim
    let seconds = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    return Visitor(directory: path, lastActive: Date(timeIntervalSince1970: seconds), bytes: bytes)
  }

  /// What `prune` did or would do.
  public struct PruneReport: Sendable, Equatable {
    /// The directories idle for at least the given days (removed unless a dry run).
    public var idle: [Visitor] = []
    /// Directories that were idle when listed but active again under their lock.
    public var skipped: [String] = []
    public var failures: [String] = []
  }

  /// Removes every visitor directory idle for at least `idleDays` days;
  /// with `dryRun` only lists them.
  ///
  /// Each one is removed under the visitor's checklists lock and then their
  /// preferences lock, after looking at its time again (a visitor who came
  /// back meanwhile is kept), by first renaming it out of its place in one
  /// step: a request that waited for the lock then finds no directory and
  /// fails without writing, rather than writing into one being deleted.
  public static func prune(
    dataDirectory: String, idleDays: Int, dryRun: Bool, now: Date = Date()
  ) -> PruneReport {
    var report = PruneReport()
    for paths in directories(dataDirectory: dataDirectory) {
      guard let candidate = visitor(at: paths.path), candidate.idleDays(now: now) >= idleDays
      else { continue }
      guard !dryRun else {
        report.idle.append(candidate)
        continue
      }
      let directory = paths.path
      let pruned = "\(directory.dropLast(paths.key.utf8.count)).pruned-\(paths.key)"
      // Taking a lock creates its file if missing, with the present time.
      let created = Set(
        [
          (paths.lockPath, VisitorDirectory.checklistsLockName),
          (paths.preferencesLockPath, VisitorDirectory.preferencesLockName),
        ].filter { (try? FileIdentity.of($0.0)) == nil }.map(\.1))
      do {
        let moved = try FileLock.withLock(paths.lockPath) {
          try FileLock.withLock(paths.preferencesLockPath) { () -> Bool in
            guard let again = visitor(at: directory, ignoring: created),
              again.idleDays(now: now) >= idleDays
            else { return false }
            guard rename(directory, pruned) == 0 else {
              throw FileError(operation: "rename", path: directory, errno: errno)
            }
            return true
          }
        }
        guard moved else {
          report.skipped.append(directory)
          continue
        }
        try FileManager.default.removeItem(atPath: pruned)
        report.idle.append(candidate)
      } catch {
        report.failures.append("\(directory): \(error)")
      }
    }
    return report
  }
}
