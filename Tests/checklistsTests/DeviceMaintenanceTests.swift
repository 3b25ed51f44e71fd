import ChecklistsModel
import FileSystem
import Foundation
import Storage
import TestSupport
import Testing
import checklists

/// `check` with owners and their browsers: the mappings are validated
/// without a write, and entries that lead nowhere are counted.
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
    // Entries that lead nowhere: a browser signed out whose entry a crash
    // left behind, one of an owner removed by hand, an expired code's, a
    // replaced code's, and an entry whose temporary file a crash left an
    // hour ago. A temporary file of a write under way is not counted.
    let signedOut = try owner(linked: 1)
    try devices.signOut(browser: 2, of: signedOut.directory)
    try devices.browserIndex.add(
      digest: SecretDigest.of(signedOut.linked[0]), leadingTo: signedOut.directory.key)
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
    #expect(report.staleBrowserEntries == 3)
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

    // Only --repair moves the unreadable file aside, and nothing else.
    let repaired = DataCheck.run(dataDirectory: data, repair: true)
    #expect(repaired.problems.first { $0.path == devicesPath(corrupt) }?.keptAs != nil)
    #expect(!FileManager.default.fileExists(atPath: devicesPath(corrupt)))
    // Then that owner's linked browser's entry leads nowhere too.
    #expect(DataCheck.run(dataDirectory: data, repair: false).staleBrowserEntries == 4)
  }
}
