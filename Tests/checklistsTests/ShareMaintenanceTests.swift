import Foundation
import Storage
import TestSupport
import Testing
import checklists

/// `check` and `prune` with share links: a pruned owner's links go with
/// them, an entry a crash left leading nowhere is counted by `check` and
/// swept by `prune`, and live links are kept.
@Suite struct ShareMaintenanceTests {
  let temporary = TemporaryDirectory("share-maintenance")
  var data: String { temporary.path }

  static func token() -> String {
    (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
  }

  @Test func pruneTakesAnOwnersLinksAndCheckCountsWhatLeadsNowhere() throws {
    let shares = ShareLinks(dataDirectory: data, durable: false)
    let devices = DeviceStore(dataDirectory: data, durable: false)
    func owner() throws -> (VisitorDirectory, OwnerSecret) {
      let token = Self.token()
      let directory = try visitorWithAnItem(token, in: data)
      return (directory, try devices.secret(of: directory, token: token, name: "A", now: Date()))
    }
    let (idle, idleSecret) = try owner()
    let (active, activeSecret) = try owner()
    let idleRead = try shares.create(.readOnly, list: 1, for: idle, secret: idleSecret, now: Date())
    _ = try shares.create(.edit, list: 1, for: idle, secret: idleSecret, now: Date())
    let activeEdit = try shares.create(
      .edit, list: 1, for: active, secret: activeSecret, now: Date())
    // A revoke cut short after its record went leaves an entry leading nowhere.
    struct Stop: Error {}
    _ = try? shares.revoke(.readOnly, list: 1, of: idle) {
      if $0 == .recordRemoved { throw Stop() }
    }
    #expect(shares.entries().count == 3)

    let checked = DataCheck.run(dataDirectory: data, repair: false)
    #expect(checked.isClean, "\(checked.problems)")
    #expect(checked.staleShareEntries == 1)

    try backdate(idle, days: 500)
    let pruned = VisitorActivity.prune(dataDirectory: data, idleDays: 400, dryRun: false)
    #expect(pruned.failures == [])
    #expect(pruned.idle.map(\.directory) == [idle.path])
    #expect(pruned.staleShareEntries.count == 2, "the idle owner's edit link and the crash's entry")
    #expect(shares.entries().map(\.digest) == [SecretDigest.of(activeEdit.text)])
    #expect(try shares.access(presenting: idleRead.text) == nil)
    #expect(try shares.access(presenting: activeEdit.text) != nil)
    #expect(DataCheck.run(dataDirectory: data, repair: false).staleShareEntries == 0)
  }
}
