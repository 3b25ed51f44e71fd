import Documents
import FileSystem
import Foundation
import PostgresStore
import Preferences
import Storage

/// When each visitor was last seen, told by the modification times of
/// their files: every write puts a new version of a file in place, and a
/// returning visitor whose cookie is renewed (at most once a day) has their
/// lock files' times set to the present (`VisitorDirectory.markActive`,
/// `Defaults.markActive`). So a visitor who keeps coming back looks active
/// even if they never change anything, and `checklists check` and `prune`
/// can tell who has gone. In a database the same is told by each
/// document's write time and the directory's `active` time
/// (`PostgresDocuments.activity(ofDirectory:)`).
package enum VisitorActivity {
  /// One visitor's directory and when it was last active.
  package struct Visitor: Sendable, Equatable {
    package var directory: String
    /// The latest modification time of its files (of the directory itself
    /// only when it holds none).
    package var lastActive: Date
    /// The bytes of its files.
    package var bytes: Int64

    /// Whole days between `lastActive` and `now`.
    package func idleDays(now: Date) -> Int {
      max(0, Int(now.timeIntervalSince(lastActive) / 86_400))
    }
  }

  /// Every visitor directory under `dataDirectory/users`, in path order
  /// (what `DataCheck` reports as misplaced is left out).
  package static func visitors(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments()
  ) -> [Visitor] {
    directories(dataDirectory: dataDirectory, documents: documents).compactMap {
      visitor(at: $0.path, documents: documents)
    }
  }

  private static func directories(dataDirectory: String, documents: any DocumentStore)
    -> [VisitorDirectory]
  {
    let users = dataDirectory + "/users"
    var found: [VisitorDirectory] = []
    for shard in documents.entries(ofDirectory: users) where VisitorDirectory.isShard(shard) {
      for key in documents.entries(ofDirectory: "\(users)/\(shard)")
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
  static func visitor(
    at path: String, documents: any DocumentStore = LocalDocuments(), ignoring: Set<String> = []
  ) -> Visitor? {
    if let database = documents as? PostgresDocuments {
      guard let activity = try? database.activity(ofDirectory: path) else { return nil }
      return Visitor(directory: path, lastActive: activity.lastActive, bytes: activity.bytes)
    }
    guard let info = try? FileStatus.of(path), info.isDirectory else { return nil }
    var latest: FileStatus?
    var bytes: Int64 = 0
    for name in documents.entries(ofDirectory: path) where !ignoring.contains(name) {
      guard let file = try? FileStatus.of("\(path)/\(name)") else { continue }
      bytes += file.size
      if let current = latest,
        (file.modifiedSeconds, file.modifiedNanoseconds)
          <= (current.modifiedSeconds, current.modifiedNanoseconds)
      {
        continue
      }
      latest = file
    }
    // An empty directory (a first write that failed) counts from its own time.
    let time = latest ?? info
    let seconds = Double(time.modifiedSeconds) + Double(time.modifiedNanoseconds) / 1e9
    return Visitor(directory: path, lastActive: Date(timeIntervalSince1970: seconds), bytes: bytes)
  }

  /// What `prune` did or would do.
  package struct PruneReport: Sendable, Equatable {
    /// The directories idle for at least the given days (removed unless a dry run).
    package var idle: [Visitor] = []
    /// Directories that were idle when listed but active again under their lock.
    package var skipped: [String] = []
    /// Calendar index entries that led nowhere (removed unless a dry run;
    /// the entries of removed visitors are not counted here).
    package var staleCalendarEntries: [String] = []
    /// Browser and link code index entries that led nowhere (removed
    /// unless a dry run; those of owners removed now are not counted here).
    package var staleBrowserEntries: [String] = []
    package var staleLinkEntries: [String] = []
    package var staleAppEntries: [String] = []
    /// Share link index entries that led nowhere (a pruned owner's links
    /// among them): removed unless a dry run.
    package var staleShareEntries: [String] = []
    /// Pending imports past their hour (removed unless a dry run; those of
    /// visitors removed now are not counted here).
    package var expiredImports: [String] = []
    package var failures: [String] = []
  }

  /// Removes every visitor directory idle for at least `idleDays` days;
  /// with `dryRun` only lists them.
  ///
  /// Each one is removed under the visitor's checklists lock and then their
  /// preferences lock, after looking at its time again (a visitor who came
  /// back meanwhile is kept), by first renaming it out of its place in one
  /// step: a request that waited for the lock then finds no directory and
  /// fails without writing, rather than writing into one being deleted.
  /// The visitor's calendar address goes with them, and so do the browsers
  /// linked to them and their pending link code: their secret and devices
  /// file are read under the lock, and the index entries removed once the
  /// directory is gone (a crash in between leaves entries that lead
  /// nowhere). Then every other entry that leads nowhere is removed too
  /// (see `CalendarAddresses.removeStaleEntries` and
  /// `DeviceStore.removeStaleEntries`).
  ///
  /// An owner is seen when any of their browsers is: a linked browser's
  /// daily renewal marks the owner's directory, which is the one it acts
  /// for, and notes its day in the owner's `Devices.plist`.
  ///
  /// In a database the same locks are taken (advisory ones, which the
  /// backends take), and the directory's documents and row are deleted in
  /// one statement under them instead of renamed and removed.
  package static func prune(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments(), idleDays: Int,
    dryRun: Bool, now: Date = Date()
  ) -> PruneReport {
    var report = PruneReport()
    let database = documents as? PostgresDocuments
    let calendars = CalendarAddresses(dataDirectory: dataDirectory, documents: documents)
    let devices = DeviceStore(dataDirectory: dataDirectory, documents: documents)
    for paths in directories(dataDirectory: dataDirectory, documents: documents) {
      guard let candidate = visitor(at: paths.path, documents: documents),
        candidate.idleDays(now: now) >= idleDays
      else { continue }
      guard !dryRun else {
        report.idle.append(candidate)
        continue
      }
      let directory = paths.path
      let pruned = "\(directory.dropLast(paths.key.utf8.count)).pruned-\(paths.key)"
      // Taking a lock creates its file if missing, with the present time.
      let preferencesLockPath = PreferencesFile.lockPath(inDirectory: directory)
      let created = Set(
        [
          (paths.lockPath, VisitorDirectory.checklistsLockName),
          (preferencesLockPath, PreferencesFile.lockName),
        ].filter { database == nil && (try? FileIdentity.of($0.0)) == nil }.map(\.1))
      do {
        let moved = try documents.withLock(paths.lockPath) {
          try documents.withLock(preferencesLockPath) { () -> Removed? in
            guard let again = visitor(at: directory, documents: documents, ignoring: created),
              again.idleDays(now: now) >= idleDays
            else { return nil }
            let secret = try calendars.secret(of: paths)
            // An unreadable file lists nothing: its entries are swept below.
            let listed = try? devices.storedDevices(of: paths)
            if let database {
              try database.removeDirectory(directory)
            } else {
              try FileNames.rename(directory, to: pruned)
            }
            return Removed(calendarSecret: secret, devices: listed)
          }
        }
        guard let moved else {
          report.skipped.append(directory)
          continue
        }
        if let calendarSecret = moved.calendarSecret {
          try calendars.removeEntry(of: calendarSecret, leadingTo: paths.key)
        }
        if let listed = moved.devices {
          report.failures += devices.removeEntries(listedIn: listed, owner: paths.key)
        }
        if database == nil { try FileManager.default.removeItem(atPath: pruned) }
        report.idle.append(candidate)
      } catch {
        report.failures.append("\(directory): \(error)")
      }
    }
    let stale = calendars.removeStaleEntries(dryRun: dryRun)
    report.staleCalendarEntries = stale.removed
    report.failures += stale.failures
    let staleDevices = devices.removeStaleEntries(dryRun: dryRun, now: now)
    let removedNow = Set(report.idle.map { AtomicFile.split($0.directory).name })
    let leftBefore = { (entry: DigestIndex.Entry) in entry.key.map(removedNow.contains) != true }
    report.staleBrowserEntries = staleDevices.browsers.filter(leftBefore).map(\.path)
    report.staleLinkEntries = staleDevices.codes.filter(leftBefore).map(\.path)
    report.staleAppEntries = staleDevices.apps.filter(leftBefore).map(\.path)
    report.failures += staleDevices.failures
    // A pruned owner's share links lead nowhere once their directory is
    // gone, so the sweep after the removals takes them too.
    let staleShares = ShareLinks(dataDirectory: dataDirectory, documents: documents)
      .removeStaleEntries(dryRun: dryRun)
    report.staleShareEntries = staleShares.removed
    report.failures += staleShares.failures
    let expired = removeExpiredImports(
      dataDirectory: dataDirectory, documents: documents, dryRun: dryRun, now: now)
    report.expiredImports = expired.removed
    report.failures += expired.failures
    return report
  }

  /// Removes every pending import past its hour, each under its owner's
  /// import lock after reading it again (an upload may have replaced it
  /// meanwhile), and returns their paths; with `dryRun` only lists them.
  static func removeExpiredImports(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments(), dryRun: Bool,
    now: Date
  ) -> (removed: [String], failures: [String]) {
    let imports = PendingImports(documents: documents)
    var removed: [String] = []
    var failures: [String] = []
    // Read without the store's cache, which would set an unreadable file
    // aside: that is `check --repair`'s to do, and a dry run writes nothing.
    func isExpired(_ path: String) -> Bool {
      guard let data = try? documents.read(path) ?? nil,
        let pending = try? PendingImports.decode(data)
      else { return false }
      return pending.isExpired(at: now)
    }
    for owner in directories(dataDirectory: dataDirectory, documents: documents) {
      let path = PendingImports.path(of: owner)
      guard isExpired(path) else { continue }
      guard !dryRun else {
        removed.append(path)
        continue
      }
      do {
        let gone = try documents.withLock(PendingImports.lockPath(of: owner)) {
          () throws -> Bool in
          guard isExpired(path) else { return false }
          try imports.remove(of: owner)
          return true
        }
        if gone { removed.append(path) }
      } catch {
        failures.append("\(path): \(error)")
      }
    }
    return (removed, failures)
  }

  /// What a pruned visitor had that lives outside their directory.
  private struct Removed {
    var calendarSecret: CalendarSecret?
    var devices: Devices?
  }
}
