import ChecklistsModel
import FileSystem
import Foundation
import Storage
import TestSupport
import Testing
import checklists

/// `check` and `prune` with owners and their browsers: the mappings are
/// validated without a write, a pruned owner's browsers and code go with
/// them, entries that lead nowhere are counted and swept, and an owner is
/// seen when any of their browsers is.
@Suite struct DeviceMaintenanceTests {
  let temporary = TemporaryDirectory("device-maintenance")
  var data: String { temporary.path }
  var devices: DeviceStore { DeviceStore(dataDirectory: data, durable: false) }

  static func token() -> String {
    (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
  }

  /// An owner with an item, their founding browser's token, and `linked`
  /// more browsers.
  struct Owner {
    let directory: VisitorDirectory
    let founding: String
    var linked: [String] = []
  }

  func owner(linked count: Int, now: Date = Date()) throws -> Owner {
    let founding = Self.token()
    var owner = Owner(directory: try visitorWithAnItem(founding, in: data), founding: founding)
    for _ in 0..<count {
      let (code, _) = try devices.createCode(
        for: owner.directory, token: founding, name: "Firefox on Linux", now: now)
      let token = Self.token()
      _ = try devices.redeem(code, newToken: token, name: "Safari on iOS", now: now)
      owner.linked.append(token)
    }
    return owner
  }

  /// Every file and directory under the data directory, with its bytes and
  /// modification time.
  func snapshot() throws -> [String: String] {
    var all: [String: String] = [:]
    for relative in try FileManager.default.subpathsOfDirectory(atPath: data) {
      let path = "\(data)/\(relative)"
      let status = try #require(try FileStatus.of(path))
      let bytes =
        status.isDirectory
        ? "" : (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString()
      all[relative] =
        "\(status.modifiedSeconds).\(status.modifiedNanoseconds) \(status.inode) \(bytes)"
    }
    return all
  }

  @Test func checkValidatesTheMappingsAndWritesNothing() throws {
    let devices = self.devices
    let good = try owner(linked: 2)
    _ = try devices.createCode(for: good.directory, token: good.founding, name: "A", now: Date())
    // A linked browser whose entry is lost cannot reach its lists.
    let cutOff = try owner(linked: 1)
    try FileManager.default.removeItem(
      atPath: devices.browserIndex.entryPath(digest: SecretDigest.of(cutOff.linked[0])))
    // A pending code whose entry is lost cannot be redeemed.
    let lostCode = try owner(linked: 0)
    let (code, _) = try devices.createCode(
      for: lostCode.directory, token: lostCode.founding, name: "A", now: Date())
    try FileManager.default.removeItem(atPath: devices.codeIndex.entryPath(digest: code.digest))
    // An unreadable devices file.
    let corrupt = try owner(linked: 1)
    try Data("garbage".utf8).write(
      to: URL(fileURLWithPath: DeviceStore.path(of: corrupt.directory)))
    // A browser signed out: its entry stays, counted apart.
    let signedOut = try owner(linked: 1)
    try devices.signOut(
      browser: 2, of: signedOut.directory, askedBy: signedOut.founding, now: Date())
    // Entries that lead nowhere: one of an owner removed by hand, an
    // expired code's, a replaced code's, and an entry whose temporary file
    // a crash left an hour ago. A temporary file of a write under way is
    // not counted.
    let vanished = try owner(linked: 1)
    try FileManager.default.removeItem(atPath: vanished.directory.path)
    let expired = try owner(linked: 0)
    _ = try devices.createCode(
      for: expired.directory, token: expired.founding, name: "A",
      now: Date(timeIntervalSinceNow: -16 * 60))
    try devices.codeIndex.add(digest: SecretDigest.of("replaced"), leadingTo: good.directory.key)
    let shard = "\(data)/browsers/\(good.directory.key.prefix(2))"
    let oldLeftover =
      "\(shard)/.\(good.directory.key.prefix(2))\(String(repeating: "0", count: 62)).tmp-1-2"
    let newLeftover =
      "\(shard)/.\(good.directory.key.prefix(2))\(String(repeating: "1", count: 62)).tmp-1-3"
    try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
    for leftover in [oldLeftover, newLeftover] {
      try Data("\(good.directory.key)\n".utf8).write(to: URL(fileURLWithPath: leftover))
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -2 * 3_600)], ofItemAtPath: oldLeftover)
    // Files that are no entries.
    try Data("x".utf8).write(to: URL(fileURLWithPath: "\(data)/browsers/stray"))
    try FileManager.default.createDirectory(
      atPath: "\(data)/links/ab", withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: "\(data)/links/ab/not-a-digest"))
    let garbled = "\(data)/links/ab/ab\(String(repeating: "c", count: 62))"
    try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: garbled))

    let before = try snapshot()
    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(try snapshot() == before, "check wrote something")
    #expect(report.linkedBrowsers == 2)
    #expect(report.signedOutBrowserEntries == 1)
    #expect(report.staleBrowserEntries == 2)
    #expect(report.staleLinkEntries == 2)
    let devicesPath = { (owner: Owner) in DeviceStore.path(of: owner.directory) }
    #expect(
      Set(report.problems.map(\.path)) == [
        devicesPath(cutOff), devicesPath(lostCode), devicesPath(corrupt), "\(data)/browsers/stray",
        "\(data)/links/ab/not-a-digest", garbled,
      ], "\(report.problems)")
    let reasons = report.problems.map(\.description).joined(separator: "\n")
    #expect(reasons.contains("browser 2 (Safari on iOS) has no index entry leading here"))
    #expect(reasons.contains("the pending link code has no index entry leading here"))
    #expect(!reasons.contains(cutOff.linked[0]) && !reasons.contains(code.canonical))

    // Even --repair leaves the unreadable devices file in place (see
    // aDevicesFileThatCannotBeReadIsReportedAndKeptInPlace); moved aside
    // by hand, that owner's linked browser is signed out.
    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    #expect(repaired.problems.first { $0.path == devicesPath(corrupt) }?.keptAs == nil)
    #expect(FileManager.default.fileExists(atPath: devicesPath(corrupt)))
    try FileManager.default.moveItem(
      atPath: devicesPath(corrupt), toPath: devicesPath(corrupt) + ".corrupt-by-hand")
    let afterRepair = DataCheck.run(dataDirectory: data, repair: false)
    #expect(afterRepair.signedOutBrowserEntries == 2 && afterRepair.staleBrowserEntries == 2)
  }

  /// A devices file the backend cannot read (damaged, or written by a
  /// newer backend) keeps the owner's browsers out until an operator
  /// repairs it: `check` reports it, and `--repair` leaves it where it is,
  /// since moving it aside would let a signed-out founding browser in
  /// again and sign every linked one out.
  @Test func aDevicesFileThatCannotBeReadIsReportedAndKeptInPlace() throws {
    let newer = try owner(linked: 1)
    let path = DeviceStore.path(of: newer.directory)
    var plist = try #require(
      try PropertyListSerialization.propertyList(
        from: try Data(contentsOf: URL(fileURLWithPath: path)), format: nil) as? [String: Any])
    plist["version"] = 2
    try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: path))
    let corrupt = try owner(linked: 1)
    try Data("garbage".utf8).write(
      to: URL(fileURLWithPath: DeviceStore.path(of: corrupt.directory)))

    let before = try snapshot()
    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    #expect(try snapshot() == before, "repair moved or wrote something")
    let problems = Dictionary(uniqueKeysWithValues: repaired.problems.map { ($0.path, $0) })
    let newerProblem = try #require(problems[path])
    #expect(newerProblem.reason.contains("newer version") && newerProblem.keptAs == nil)
    let corruptProblem = try #require(problems[DeviceStore.path(of: corrupt.directory)])
    #expect(corruptProblem.reason.contains("kept in place") && corruptProblem.keptAs == nil)
    #expect(corruptProblem.reason.contains("backup"))
  }

  @Test func pruneTakesAnOwnersBrowsersAndCodeWithThemAndSweepsTheRest() throws {
    let devices = self.devices
    let idle = try owner(linked: 3)
    try devices.signOut(browser: 4, of: idle.directory, askedBy: idle.founding, now: Date())
    let (idleCode, _) = try devices.createCode(
      for: idle.directory, token: idle.linked[0], name: "A", now: Date())
    let active = try owner(linked: 2)
    try devices.signOut(
      browser: 3, of: active.directory, askedBy: active.founding, now: Date())
    // An owner removed by hand leaves an entry that leads nowhere.
    let vanished = try owner(linked: 1)
    try FileManager.default.removeItem(atPath: vanished.directory.path)
    let vanishedEntry = devices.browserIndex.entryPath(digest: SecretDigest.of(vanished.linked[0]))
    try backdate(idle.directory, days: 500)

    let dryRun = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: true)
    #expect(dryRun.idle.map(\.directory) == [idle.directory.path])
    #expect(dryRun.staleBrowserEntries == [vanishedEntry])
    #expect(dryRun.staleLinkEntries == [])
    #expect(devices.browserIndex.entries().count == 6)
    #expect(try devices.resolve(token: idle.linked[1]) == .owner(idle.directory, browserID: 3))

    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.failures == [])
    #expect(pruned.idle.map(\.directory) == [idle.directory.path])
    #expect(pruned.staleBrowserEntries == [vanishedEntry], "the idle owner's are not counted")
    #expect(!FileManager.default.fileExists(atPath: idle.directory.path))
    #expect(
      Set(devices.browserIndex.entries().map(\.digest))
        == Set(active.linked.map { SecretDigest.of($0) }),
      "the idle owner's browsers, signed out or not, and the stale entry went")
    #expect(devices.codeIndex.entries().isEmpty, "the idle owner's pending code went")
    for token in idle.linked {
      #expect(
        try devices.resolve(token: token)
          == .owner(VisitorDirectory(dataDirectory: data, visitorID: token), browserID: nil))
    }
    #expect(throws: DeviceStore.Refusal.invalidCode) {
      try devices.redeem(idleCode, newToken: Self.token(), name: "B", now: Date())
    }
    #expect(try devices.resolve(token: active.linked[0]) == .owner(active.directory, browserID: 2))
    #expect(try devices.resolve(token: active.linked[1]) == .signedOut)
    let after = DataCheck.run(dataDirectory: data, repair: false)
    #expect(after.isClean, "\(after.problems)")
    #expect(after.staleBrowserEntries == 0 && after.staleLinkEntries == 0)
    #expect(after.linkedBrowsers == 1 && after.signedOutBrowserEntries == 1)
  }

  /// A process that links and signs out browsers, killed at random
  /// moments, leaves nothing `check` calls a problem: at most entries and
  /// temporary files that lead nowhere, which `prune` sweeps (the
  /// temporary files once an hour old), besides the entries of browsers
  /// signed out.
  @Test func checkIsCleanAfterCrashesAndPruneSweepsWhatTheyLeft() throws {
    let child = try BuiltTool.path("store-child")
    let founding = Self.token()
    let owner = VisitorDirectory(dataDirectory: data, visitorID: founding)
    var random = SeededGenerator(seed: 14)
    // 30 runs at least, and more until one signed a browser out: on a
    // loaded machine a child may do little before its kill.
    var runs = 0
    var signedOut = false
    while runs < 30 || (!signedOut && runs < 300) {
      runs += 1
      let process = Process()
      process.executableURL = URL(fileURLWithPath: child)
      process.arguments = ["devices", data, founding]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      var said = output.fileHandleForReading.availableData  // its first line
      usleep(UInt32.random(in: 0..<20_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      said += output.fileHandleForReading.readDataToEndOfFile()
      let lines = String(decoding: said, as: UTF8.self).split(separator: "\n")
      signedOut =
        signedOut
        || zip(lines, lines.dropFirst()).contains { $0.hasPrefix("begin signout") && $1 == "done" }
      #expect(process.terminationReason == .uncaughtSignal)
    }
    let stored = try #require(try devices.storedDevices(of: owner))
    let report = DataCheck.run(dataDirectory: data, repair: false)
    #expect(report.isClean, "\(report.problems)")
    #expect(report.linkedBrowsers == stored.browsers.count - 1)
    #expect(report.signedOutBrowserEntries > 0)

    let later = Date(timeIntervalSinceNow: 2 * 3_600)
    let pruned = VisitorActivity.prune(
      dataDirectory: data, idleDays: 400, dryRun: false, now: later)
    #expect(pruned.idle.isEmpty && pruned.failures.isEmpty)
    let after = DataCheck.run(dataDirectory: data, repair: false, now: later)
    #expect(after.isClean && after.staleBrowserEntries == 0 && after.staleLinkEntries == 0)
    let entries = devices.browserIndex.entries()
    #expect(entries.allSatisfy { $0.key == owner.key }, "entries only, all the owner's")
    #expect(
      Set(entries.compactMap(\.digest)).isSuperset(
        of: Set(stored.browsers.map(\.digest)).subtracting([owner.key])),
      "every linked browser's entry")
    #expect(entries.count == after.linkedBrowsers + after.signedOutBrowserEntries)
    #expect(devices.codeIndex.entries().isEmpty, "the pending code expired by then")
  }

  /// An owner is seen when any of their browsers is: what a linked
  /// browser's daily renewal does (`VisitorSession`: the directory its
  /// token resolves to is marked, and its day noted) is what `prune` reads.
  @Test func aLinkedBrowsersVisitKeepsItsOwner() throws {
    let devices = self.devices
    let owner = try owner(linked: 1)
    let linked = owner.linked[0]
    try backdate(owner.directory, days: 500)
    #expect(VisitorActivity.visitors(dataDirectory: data).first?.idleDays(now: Date()) == 500)

    guard case .owner(let directory, let browserID) = try devices.resolve(token: linked) else {
      Issue.record("the linked browser does not act for its owner")
      return
    }
    #expect(directory == owner.directory && browserID == 2)
    directory.markActive(in: LocalDocuments())
    #expect(
      VisitorActivity.visitors(dataDirectory: data).map(\.directory) == [owner.directory.path])
    #expect(VisitorActivity.visitors(dataDirectory: data).first?.idleDays(now: Date()) == 0)
    let linkedOwnDirectory = VisitorDirectory(dataDirectory: data, visitorID: linked)
    #expect(!FileManager.default.fileExists(atPath: linkedOwnDirectory.path))
    let report = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(report.idle.isEmpty)

    // Its day noted in the owner's devices file counts as well.
    try backdate(owner.directory, days: 500)
    try devices.noteSeen(owner: directory, token: linked, now: Date(timeIntervalSinceNow: 86_400))
    #expect(VisitorActivity.visitors(dataDirectory: data).first?.idleDays(now: Date()) == 0)
    #expect(VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false).idle.isEmpty)
    #expect(FileManager.default.fileExists(atPath: owner.directory.checklistsPath))
  }
}
