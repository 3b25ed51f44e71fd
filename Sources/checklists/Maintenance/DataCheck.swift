import ChecklistsModel
import Documents
import FileSystem
import Foundation
import Preferences
import Storage
import Support

/// Validates every visitor's files under `DATA/users` (the `check` command).
package enum DataCheck {
  /// Something wrong with one file or directory.
  package struct Problem: Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: String
    /// Where `repair` moved the file, if it did.
    package var keptAs: String?

    package var description: String {
      keptAs.map { "\(path): \(reason) (moved to \($0))" } ?? "\(path): \(reason)"
    }
  }

  /// What a check found.
  package struct Report: Sendable, Equatable {
    package var visitors = 0
    package var filesChecked = 0
    package var problems: [Problem] = []
    /// Visitors with a calendar address whose index entry leads to them.
    package var calendarAddresses = 0
    /// Calendar index entries that lead nowhere: left by a crash between
    /// the steps of a change, harmless (a presented secret is always
    /// compared with the visitor's current one); `prune --delete` removes
    /// them. Not a problem.
    package var staleCalendarEntries = 0
    /// Linked browsers (not founding ones) whose index entry leads to
    /// their owner.
    package var linkedBrowsers = 0
    /// Entries of browsers signed out, kept while their owner is so that
    /// an old token reads as signed out.
    package var signedOutBrowserEntries = 0
    /// Entries of `browsers/` and of `links/` that lead nowhere (see
    /// `DeviceStore+Maintenance`): harmless, `prune --delete` removes
    /// them. Not a problem.
    package var staleBrowserEntries = 0
    package var staleLinkEntries = 0
    /// Entries of `apps/` that lead nowhere (an app ended while its entry's
    /// removal was cut short): harmless, `prune --delete` removes them.
    package var staleAppEntries = 0
    /// Share link index entries leading nowhere (a link revoked or an
    /// owner removed while a change was cut short); not a problem.
    package var staleShareEntries = 0
    /// Pending imports waiting for their Confirm.
    package var pendingImports = 0
    /// Pending imports older than their hour, which nothing will confirm:
    /// harmless, the owner's next upload, Confirm or Cancel or
    /// `prune --delete` removes them. Not a problem.
    package var expiredImports = 0
    /// True when nothing is wrong (the command's exit status 0).
    package var isClean: Bool { problems.isEmpty }
  }

  /// Walks `dataDirectory/users/<shard>/<key>/`, decodes every
  /// `Checklists.plist` and `Devices.plist` and checks that every
  /// `Preferences.plist` is a dictionary plist, that every
  /// `PendingImport.plist` is a pending import, that every
  /// `Calendar.secret` holds a secret whose index entry leads back to its
  /// visitor, that every linked browser a `Devices.plist` lists (and its
  /// pending code) has its index entry leading back to its owner, and that
  /// every file of the calendar, browser and link code indexes is an entry.
  /// Writes nothing unless `repair`.
  ///
  /// - Parameters:
  ///   - repair: move unreadable files aside (`<name>.corrupt-<timestamp>`),
  ///     as the stores do when they meet one; never a `Devices.plist` (see
  ///     `checkDevicesFile`).
  ///   - now: when pending link codes expire from.
  ///   - documents: where the documents are (the files in `dataDirectory`
  ///     unless told otherwise).
  package static func run(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments(), repair: Bool,
    now: Date = Date()
  ) -> Report {
    var report = Report()
    let users = dataDirectory + "/users"
    let devices = DeviceStore(dataDirectory: dataDirectory, documents: documents)
    let calendars = CalendarAddresses(dataDirectory: dataDirectory, documents: documents)
    checkCalendarIndex(calendars, now: now, into: &report)
    checkShareIndex(
      ShareLinks(dataDirectory: dataDirectory, documents: documents), now: now, into: &report)
    checkDeviceIndexes(devices, now: now, into: &report)
    // Nothing under users/ when nobody has stored anything yet.
    for shard in documents.entries(ofDirectory: users) {
      let shardPath = "\(users)/\(shard)"
      guard VisitorDirectory.isShard(shard) else {
        report.problems.append(Problem(path: shardPath, reason: "not a shard directory"))
        continue
      }
      for key in documents.entries(ofDirectory: shardPath) {
        let visitorPath = "\(shardPath)/\(key)"
        guard VisitorDirectory.isKey(key, inShard: shard) else {
          report.problems.append(Problem(path: visitorPath, reason: "not a visitor directory"))
          continue
        }
        report.visitors += 1
        let visitor = VisitorDirectory(dataDirectory: dataDirectory, key: key)
        check(
          visitor.checklistsPath, lock: visitor.lockPath, in: documents, repair: repair,
          into: &report
        ) { data in
          _ = try ChecklistStore.decodeChecklistsFile(data)
        }
        check(
          PreferencesFile.path(inDirectory: visitor.path),
          lock: PreferencesFile.lockPath(inDirectory: visitor.path), in: documents, repair: repair,
          into: &report
        ) { data in
          guard Defaults.decodePersistentDomain(data) != nil else { throw NotADictionary() }
        }
        checkCalendarSecret(of: visitor, calendars, into: &report)
        checkDevices(of: visitor, in: devices, now: now, into: &report)
        checkPendingImport(of: visitor, in: documents, repair: repair, now: now, into: &report)
      }
    }
    return report
  }

  /// A visitor's `Calendar.secret`, when there is one: 64 hex digits whose
  /// index entry leads back to them (else their address would be `404`).
  private static func checkCalendarSecret(
    of visitor: VisitorDirectory, _ calendars: CalendarAddresses, into report: inout Report
  ) {
    let path = CalendarAddresses.secretPath(of: visitor)
    guard (try? calendars.documents.identity(of: path)) != nil else { return }
    report.filesChecked += 1
    guard let secret = try? calendars.secret(of: visitor) else {
      report.problems.append(Problem(path: path, reason: "not a calendar secret"))
      return
    }
    let entry = CalendarAddresses.Entry(
      path: calendars.entryPath(digest: secret.digest), digest: secret.digest, key: visitor.key)
    guard let stored = calendars.entries().first(where: { $0.path == entry.path }),
      stored == entry
    else {
      report.problems.append(
        Problem(path: path, reason: "calendar address without its index entry (its feed is 404)"))
      return
    }
    report.calendarAddresses += 1
  }

  /// An owner's `PendingImport.plist`, when there is one: it decodes, and
  /// is counted as waiting or expired.
  private static func checkPendingImport(
    of owner: VisitorDirectory, in documents: any DocumentStore, repair: Bool, now: Date,
    into report: inout Report
  ) {
    var pending: PendingImport?
    check(
      PendingImports.path(of: owner), lock: PendingImports.lockPath(of: owner), in: documents,
      repair: repair, into: &report
    ) { data in
      pending = try PendingImports.decode(data)
    }
    guard let pending else { return }
    if pending.isExpired(at: now) {
      report.expiredImports += 1
    } else {
      report.pendingImports += 1
    }
  }

  /// Every file under `DATA/shares` must be an entry or the temporary
  /// file of one; entries that lead nowhere are counted.
  private static func checkShareIndex(_ shares: ShareLinks, now: Date, into report: inout Report) {
    for entry in shares.entries() {
      if entry.digest == nil, let old = DigestIndex.leftover(entry.path, now: now) {
        if old { report.staleShareEntries += 1 }
        continue
      }
      guard entry.key != nil else {
        report.problems.append(Problem(path: entry.path, reason: "not a share link index entry"))
        continue
      }
      if !shares.isCurrent(entry) { report.staleShareEntries += 1 }
    }
  }

  /// Every file under `DATA/calendars` must be an entry (`<2 hex>/<64 hex>`
  /// holding a visitor's key) or the temporary file of one; entries that
  /// lead nowhere (and temporary files an hour old) are counted.
  private static func checkCalendarIndex(
    _ calendars: CalendarAddresses, now: Date, into report: inout Report
  ) {
    for entry in calendars.entries() {
      if entry.digest == nil, let old = DigestIndex.leftover(entry.path, now: now) {
        if old { report.staleCalendarEntries += 1 }
        continue
      }
      guard entry.key != nil else {
        report.problems.append(Problem(path: entry.path, reason: "not a calendar index entry"))
        continue
      }
      if !calendars.isCurrent(entry) { report.staleCalendarEntries += 1 }
    }
  }

  /// An owner's `Devices.plist`, when there is one: it decodes, each linked
  /// browser it lists has its index entry leading back to the owner (else
  /// that browser is a new visitor at its next request, cut off from its
  /// lists), and so has a pending code that has not expired (else it
  /// cannot be redeemed).
  private static func checkDevices(
    of owner: VisitorDirectory, in devices: DeviceStore, now: Date, into report: inout Report
  ) {
    let path = DeviceStore.path(of: owner)
    guard let decoded = checkDevicesFile(path, in: devices.documents, into: &report) else {
      return
    }
    for browser in decoded.browsers where browser.digest != owner.key {
      guard (try? devices.browserIndex.owner(ofDigest: browser.digest)) == owner.key else {
        report.problems.append(
          Problem(
            path: path,
            reason: "browser \(browser.id) (\(browser.name)) has no index entry leading here: "
              + "it cannot reach its lists"))
        continue
      }
      report.linkedBrowsers += 1
    }
    if let code = decoded.code, code.expires > now,
      (try? devices.codeIndex.owner(ofDigest: code.digest)) != owner.key
    {
      report.problems.append(
        Problem(
          path: path,
          reason: "the pending link code has no index entry leading here: it cannot be redeemed"))
    }
  }

  /// An owner's `Devices.plist` decoded; nil when there is none, or when it
  /// cannot be read, which is reported. Even `--repair` leaves such a file
  /// where it is: the store refuses every browser of its owner meanwhile
  /// (it fails closed), while a file set aside would read as none, letting
  /// the founding browser (maybe a signed-out lost phone) in again and
  /// signing every linked browser out. Which to do is the operator's call.
  private static func checkDevicesFile(
    _ path: String, in documents: any DocumentStore, into report: inout Report
  ) -> Devices? {
    let data: Data
    do {
      guard let contents = try documents.read(path) else { return nil }
      data = contents
    } catch {
      report.problems.append(Problem(path: path, reason: "\(error)"))
      return nil
    }
    report.filesChecked += 1
    do {
      return try Devices.decode(data)
    } catch let newer as Devices.NewerVersion {
      report.problems.append(
        Problem(
          path: path,
          reason: "\(newer): kept in place for the backend that wrote it; until that backend "
            + "runs, its owner's browsers are answered 503"))
    } catch {
      report.problems.append(
        Problem(
          path: path,
          reason: "unreadable: \(error); kept in place, and its owner's browsers are answered "
            + "503: put it back from a backup (moving it aside instead lets the owner's first "
            + "browser in again, even one signed out, and signs out every other)"))
    }
    return nil
  }

  /// Every file under `DATA/browsers` and `DATA/links` must be an entry
  /// (`<2 hex>/<64 hex>` holding an owner's key) or the temporary file of
  /// one; entries that lead nowhere (and temporary files an hour old) are
  /// counted.
  private static func checkDeviceIndexes(
    _ devices: DeviceStore, now: Date, into report: inout Report
  ) {
    for entry in devices.browserIndex.entries() {
      switch devices.state(ofBrowserEntry: entry, now: now) {
      case .current, .ownerUnreadable, .recentLeftover: break
      case .signedOut: report.signedOutBrowserEntries += 1
      case .stale: report.staleBrowserEntries += 1
      case .malformed:
        report.problems.append(Problem(path: entry.path, reason: "not a browser index entry"))
      }
    }
    for entry in devices.codeIndex.entries() {
      switch devices.state(ofCodeEntry: entry, now: now) {
      case .current, .signedOut, .ownerUnreadable, .recentLeftover: break
      case .stale: report.staleLinkEntries += 1
      case .malformed:
        report.problems.append(Problem(path: entry.path, reason: "not a link code index entry"))
      }
    }
    for entry in devices.appIndex.entries() {
      switch devices.state(ofAppEntry: entry, now: now) {
      case .current, .signedOut, .ownerUnreadable, .recentLeftover: break
      case .stale: report.staleAppEntries += 1
      case .malformed:
        report.problems.append(Problem(path: entry.path, reason: "not a calendar app index entry"))
      }
    }
  }

  private struct NotADictionary: Error, CustomStringConvertible {
    var description: String { "not a dictionary plist" }
  }

  /// Checks one file and, with `repair`, sets it aside under `lock`: the
  /// lock its owner (the store or the preferences) takes to replace it, so
  /// that a repair never moves a file while a change of it is under way.
  /// The file is read again under the lock, since its owner may have set
  /// it aside and written a good version since the first read; that
  /// version is left in place and not reported.
  private static func check(
    _ path: String, lock: String, in documents: any DocumentStore, repair: Bool,
    into report: inout Report,
    validate: (Data) throws -> Void
  ) {
    let data: Data
    do {
      guard let contents = try documents.read(path) else { return }
      data = contents
    } catch {
      report.problems.append(Problem(path: path, reason: "\(error)"))
      return
    }
    report.filesChecked += 1
    do {
      try validate(data)
    } catch {
      var problem = Problem(path: path, reason: "unreadable: \(error)")
      if repair && !(error is DataModel.NewerVersion) {  // a newer backend's file is not corrupt
        do {
          let moved = try documents.withLock(lock) { () throws -> String? in
            guard let current = try documents.read(path) else { return nil }
            do {
              try validate(current)
              return nil
            } catch is DataModel.NewerVersion {
              return nil
            } catch {
              return try documents.setAside(path, durable: false)
            }
          }
          guard let moved else { return }  // replaced or set aside by its owner meanwhile
          problem.keptAs = moved
        } catch {
          problem.reason += "; could not move it aside: \(error)"
        }
      }
      report.problems.append(problem)
    }
  }

}
