import Documents
import FileSystem
import Foundation

/// What `checklists check` and `prune` need of the devices: each owner's
/// file read as it is, and which index entries lead somewhere.
///
/// An entry of `browsers/` is current while its owner's devices file lists
/// that browser (a linked one: a founding browser has no entry); once the
/// browser is signed out its entry stays while the owner does, so that its
/// old token reads as signed out (as does the entry a crash left before a
/// redeem's commit). An entry of `links/` is current while the owner's
/// pending code is that code and has not expired. Anything else leads
/// nowhere: a browser entry whose owner is gone (removed by hand, or a
/// crash after `prune` removed the directory), a code entry spent,
/// replaced, cancelled or expired whose removal a crash cut short. Such
/// entries are harmless (a browser or code is always checked against the
/// owner's file) and `prune` removes them. So are the temporary files of
/// an entry's write cut short (`.<digest>.tmp-…`), once an hour old.
extension DeviceStore {
  /// The owner's devices file as it is on disk; nil when there is none.
  /// Unlike `devices(of:)`, an unreadable file is left where it is (and
  /// thrown): `check` reports it, and only `check --repair` sets it aside.
  package func storedDevices(of owner: VisitorDirectory) throws -> Devices? {
    guard let data = try documents.read(Self.path(of: owner)) else { return nil }
    return try Devices.decode(data)
  }

  /// What an index entry is to `check` and `prune`.
  package enum EntryState: Sendable, Equatable {
    /// It leads to its owner's browser or pending code.
    case current
    /// It leads to an owner who no longer lists its browser: kept while
    /// the owner is, so that the browser's old token reads as signed out.
    case signedOut
    /// It leads nowhere (or is an old temporary file).
    case stale
    /// Its owner's devices file cannot be read: it is kept until the file
    /// is repaired or set aside.
    case ownerUnreadable
    /// It is neither an entry nor a temporary file of one, or holds no
    /// owner key: `check` reports it.
    case malformed
    /// A temporary file of a write that may still be under way.
    case recentLeftover
  }

  /// The state of an entry of `browserIndex`.
  package func state(ofBrowserEntry entry: DigestIndex.Entry, now: Date) -> EntryState {
    if let key = entry.key,
      (try? documents.directoryExists(VisitorDirectory(dataDirectory: dataDirectory, key: key).path))
        != true
    {
      return .stale
    }
    return state(of: entry, now: now) { devices, digest, key in
      digest != key && devices?.browser(digest: digest) != nil ? .current : .signedOut
    }
  }

  /// The state of an entry of `appIndex`: current while its owner's devices
  /// file lists an app of that password.
  package func state(ofAppEntry entry: DigestIndex.Entry, now: Date) -> EntryState {
    state(of: entry, now: now) { devices, digest, _ in
      devices?.app(digest: digest) != nil ? .current : .stale
    }
  }

  /// The state of an entry of `codeIndex` at `now`.
  package func state(ofCodeEntry entry: DigestIndex.Entry, now: Date) -> EntryState {
    state(of: entry, now: now) { devices, digest, _ in
      devices?.code.map { $0.digest == digest && $0.expires > now } == true ? .current : .stale
    }
  }

  private func state(
    of entry: DigestIndex.Entry, now: Date, leads: (Devices?, String, String) -> EntryState
  ) -> EntryState {
    guard let digest = entry.digest else {
      switch DigestIndex.leftover(entry.path, now: now) {
      case nil: return .malformed
      case true?: return .stale
      case false?: return .recentLeftover
      }
    }
    guard let key = entry.key else { return .malformed }
    let owner = VisitorDirectory(dataDirectory: dataDirectory, key: key)
    let devices: Devices?
    do { devices = try storedDevices(of: owner) } catch { return .ownerUnreadable }
    return leads(devices, digest, key)
  }

  /// Removes the index entries of the linked browsers and the pending code
  /// that `devices` lists for the owner `key`: what `prune` does once it
  /// has removed that owner's directory (it read their devices under their
  /// lock before); the entries of browsers signed out, which lead to no
  /// owner then, go with the stale ones. Returns the failures.
  package func removeEntries(listedIn devices: Devices, owner key: String) -> [String] {
    var failures: [String] = []
    for browser in devices.browsers where browser.digest != key {
      do { try browserIndex.remove(digest: browser.digest, ifLeadingTo: key) } catch {
        failures.append("\(browserIndex.entryPath(digest: browser.digest)): \(error)")
      }
    }
    if let code = devices.code {
      do { try codeIndex.remove(digest: code.digest, ifLeadingTo: key) } catch {
        failures.append("\(codeIndex.entryPath(digest: code.digest)): \(error)")
      }
    }
    for app in devices.apps {
      do { try appIndex.remove(digest: app.digest, ifLeadingTo: key) } catch {
        failures.append("\(appIndex.entryPath(digest: app.digest)): \(error)")
      }
    }
    return failures
  }

  /// What `removeStaleEntries` removed (or with `dryRun` would remove).
  package struct StaleEntries: Sendable, Equatable {
    package var browsers: [DigestIndex.Entry] = []
    package var codes: [DigestIndex.Entry] = []
    package var apps: [DigestIndex.Entry] = []
    package var failures: [String] = []
  }

  /// Removes the entries of both indexes that lead nowhere, each under its
  /// owner's lock when the owner still has a directory (a change under way
  /// writes its entry before the devices file that makes it current), and
  /// returns them; with `dryRun` only lists them.
  package func removeStaleEntries(dryRun: Bool, now: Date) -> StaleEntries {
    var found = StaleEntries()
    found.browsers = removeStale(
      in: browserIndex, dryRun: dryRun, failures: &found.failures
    ) { state(ofBrowserEntry: $0, now: now) }
    found.codes = removeStale(in: codeIndex, dryRun: dryRun, failures: &found.failures) {
      state(ofCodeEntry: $0, now: now)
    }
    found.apps = removeStale(in: appIndex, dryRun: dryRun, failures: &found.failures) {
      state(ofAppEntry: $0, now: now)
    }
    return found
  }

  private func removeStale(
    in index: DigestIndex, dryRun: Bool, failures: inout [String],
    state: (DigestIndex.Entry) -> EntryState
  ) -> [DigestIndex.Entry] {
    let swept = index.removeStale(dataDirectory: dataDirectory, dryRun: dryRun) {
      state($0) != .stale
    }
    failures += swept.failures
    return swept.removed
  }
}

extension DigestIndex {
  /// How old a temporary file in an index must be to be taken for the
  /// leftover of an interrupted write rather than a write under way.
  package static let leftoverAge: TimeInterval = 3_600

  /// For the temporary file of an entry's write (`AtomicFile.write` names
  /// it `.<64 hex>.tmp-<pid>-<random>` in the entry's shard), whether it is
  /// `leftoverAge` old at `now`; nil for any other path.
  package static func leftover(_ path: String, now: Date) -> Bool? {
    let (directory, name) = DocumentName.split(path)
    let shard = DocumentName.split(directory).name
    guard name.hasPrefix("."), let suffix = name.range(of: ".tmp-") else { return nil }
    let digest = String(name[name.index(after: name.startIndex)..<suffix.lowerBound])
    guard VisitorDirectory.isKey(digest, inShard: shard),
      let status = try? FileStatus.of(path), !status.isDirectory
    else { return nil }
    return now.timeIntervalSince1970 - Double(status.modifiedSeconds) >= leftoverAge
  }
}
