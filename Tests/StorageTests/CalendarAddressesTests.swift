import FileSystem
import Foundation
import Storage
import TestSupport
import Testing

/// The calendar secrets and their index: made, replaced and removed, and
/// never a way in after a crash between the steps of a change.
@Suite struct CalendarAddressesTests {
  let temporary = TemporaryDirectory("calendar-addresses")
  var data: String { temporary.path }
  var calendars: CalendarAddresses { CalendarAddresses(dataDirectory: data, durable: false) }

  func visitor(_ id: String) -> VisitorDirectory {
    VisitorDirectory(dataDirectory: data, visitorID: id)
  }

  /// A stop at `step`, as a crash there would leave the files.
  struct Crash: Error {}

  func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func aSecretIs256RandomBitsInHexAndNeverPrinted() {
    var seen = Set<String>()
    for _ in 0..<200 {
      let secret = CalendarSecret.random()
      #expect(secret.text.utf8.count == 64)
      #expect(CalendarSecret.isWellFormed(secret.text.utf8))
      seen.insert(secret.text)
      #expect(!"\(secret)".contains(secret.text))
      #expect(!String(reflecting: secret).contains(secret.text))
    }
    #expect(seen.count == 200)
    #expect(CalendarSecret.byteCount * 8 >= 128)
  }

  @Test func matchingComparesEveryByte() throws {
    let secret = try #require(CalendarSecret(text: String(repeating: "ab", count: 32)))
    #expect(secret.matches(secret.text))
    #expect(!secret.matches(String(secret.text.dropLast()) + "c"))
    #expect(!secret.matches("c" + String(secret.text.dropFirst())))
    #expect(!secret.matches(String(secret.text.dropLast())))
    #expect(!secret.matches(secret.text + "a"))
    #expect(!secret.matches(""))
    for text in ["", "AB", String(repeating: "A", count: 64), String(repeating: "g", count: 64)] {
      #expect(CalendarSecret(text: text) == nil, "\(text)")
    }
  }

  @Test func createMakesTheSecretAndItsIndexEntryBothPrivate() throws {
    let someone = visitor("someone")
    #expect(try calendars.secret(of: someone) == nil)
    let secret = try calendars.create(for: someone)
    #expect(try calendars.secret(of: someone) == secret)
    #expect(try calendars.visitor(presenting: secret.text) == someone)
    let entry = calendars.entryPath(digest: secret.digest)
    #expect(FileManager.default.contents(atPath: entry) == Data("\(someone.key)\n".utf8))
    #expect(try mode(entry) == 0o600)
    #expect(try mode(CalendarAddresses.secretPath(of: someone)) == 0o600)
    // The index names the secret's digest, never the secret.
    let everything = try FileManager.default.subpathsOfDirectory(atPath: data).joined(
      separator: " ")
    #expect(!everything.contains(secret.text))
    #expect(entry.hasPrefix("\(data)/calendars/\(secret.digest.prefix(2))/"))
    // A repeated create (the form sent twice) keeps the address.
    #expect(try calendars.create(for: someone) == secret)
    #expect(calendars.entries().count == 1)
  }

  @Test func onlyTheCurrentSecretOfItsOwnVisitorLeadsIn() throws {
    let alice = visitor("alice")
    let bob = visitor("bob")
    let aliceSecret = try calendars.create(for: alice)
    let bobSecret = try calendars.create(for: bob)
    #expect(try calendars.visitor(presenting: aliceSecret.text) == alice)
    #expect(try calendars.visitor(presenting: bobSecret.text) == bob)
    let unknown = CalendarSecret.random()
    #expect(try calendars.visitor(presenting: unknown.text) == nil)
    for malformed in [
      "", "abc", aliceSecret.text.uppercased(), aliceSecret.text + "0",
      String(aliceSecret.text.dropLast()), "../../users", String(repeating: "z", count: 64),
    ] {
      #expect(try calendars.visitor(presenting: malformed) == nil, "\(malformed)")
    }
    // An index entry that names another visitor does not let the secret in there.
    let entry = calendars.entryPath(digest: aliceSecret.digest)
    try Data("\(bob.key)\n".utf8).write(to: URL(fileURLWithPath: entry))
    #expect(try calendars.visitor(presenting: aliceSecret.text) == nil)
    // A damaged entry or secret file is no way in either.
    try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: entry))
    #expect(try calendars.visitor(presenting: aliceSecret.text) == nil)
    try Data("garbage".utf8).write(
      to: URL(fileURLWithPath: CalendarAddresses.secretPath(of: bob)))
    #expect(try calendars.visitor(presenting: bobSecret.text) == nil)
    #expect(try calendars.secret(of: bob) == nil)
  }

  @Test func replacingStopsTheOldSecretAtOnce() throws {
    let someone = visitor("someone")
    let old = try calendars.create(for: someone)
    let new = try calendars.replace(for: someone)
    #expect(new != old)
    #expect(try calendars.visitor(presenting: old.text) == nil)
    #expect(try calendars.visitor(presenting: new.text) == someone)
    #expect(calendars.entries().map(\.path) == [calendars.entryPath(digest: new.digest)])
    // Replacing when there is none makes one.
    let other = visitor("other")
    let made = try calendars.replace(for: other)
    #expect(try calendars.visitor(presenting: made.text) == other)
  }

  @Test func removingStopsTheSecretAndLeavesNothing() throws {
    let someone = visitor("someone")
    let secret = try calendars.create(for: someone)
    try calendars.remove(for: someone)
    #expect(try calendars.visitor(presenting: secret.text) == nil)
    #expect(try calendars.secret(of: someone) == nil)
    #expect(calendars.entries().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: CalendarAddresses.secretPath(of: someone)))
    try calendars.remove(for: someone)  // nothing to remove: no error
    // A new address after a removal is a new secret.
    #expect(try calendars.create(for: someone) != secret)
  }

  /// A replacement stopped after its new index entry: the old secret still
  /// works (the change was never acknowledged), the new one does not.
  @Test func aCrashAfterTheNewEntryKeepsTheOldSecretOnly() throws {
    let someone = visitor("someone")
    let old = try calendars.create(for: someone)
    #expect(throws: Crash.self) {
      try calendars.replace(for: someone) { step in if step == .newEntryWritten { throw Crash() } }
    }
    #expect(try calendars.secret(of: someone) == old)
    #expect(try calendars.visitor(presenting: old.text) == someone)
    let entries = calendars.entries()
    #expect(entries.count == 2)
    let stray = try #require(entries.first { !calendars.isCurrent($0) })
    #expect(stray.key == someone.key)
    // Nobody knows the new secret (it was never shown); the stray entry
    // leads nowhere and is swept.
    let swept = calendars.removeStaleEntries(dryRun: false)
    #expect(swept.removed == [stray.path] && swept.failures.isEmpty)
    #expect(try calendars.visitor(presenting: old.text) == someone)
    #expect(calendars.entries().count == 1)
  }

  /// A replacement stopped after the visitor's new secret: the new one
  /// works, the old one never again, though its entry is still there.
  @Test func aCrashAfterTheNewSecretNeverLetsTheOldOneIn() throws {
    let someone = visitor("someone")
    let old = try calendars.create(for: someone)
    var new: CalendarSecret?
    #expect(throws: Crash.self) {
      try calendars.replace(for: someone) { step in
        if step == .secretWritten {
          new = try calendars.secret(of: someone)
          throw Crash()
        }
      }
    }
    let replaced = try #require(new)
    #expect(replaced != old)
    #expect(FileManager.default.fileExists(atPath: calendars.entryPath(digest: old.digest)))
    #expect(try calendars.visitor(presenting: old.text) == nil)
    #expect(try calendars.visitor(presenting: replaced.text) == someone)
    #expect(
      calendars.removeStaleEntries(dryRun: true).removed == [
        calendars.entryPath(digest: old.digest)
      ])
    #expect(calendars.removeStaleEntries(dryRun: false).removed.count == 1)
    #expect(try calendars.visitor(presenting: replaced.text) == someone)
  }

  /// A first address stopped after its entry: no address, and a retry works.
  @Test func aCrashInTheFirstCreateLeavesNoAddress() throws {
    let someone = visitor("someone")
    #expect(throws: Crash.self) {
      try calendars.create(for: someone) { step in if step == .newEntryWritten { throw Crash() } }
    }
    #expect(try calendars.secret(of: someone) == nil)
    #expect(calendars.entries().count == 1 && !calendars.isCurrent(calendars.entries()[0]))
    let secret = try calendars.create(for: someone)
    #expect(try calendars.visitor(presenting: secret.text) == someone)
  }

  /// A removal stopped after the secret went: its entry leads nowhere.
  @Test func aCrashInARemovalNeverLetsTheSecretIn() throws {
    let someone = visitor("someone")
    let secret = try calendars.create(for: someone)
    #expect(throws: Crash.self) {
      try calendars.remove(for: someone) { step in if step == .secretRemoved { throw Crash() } }
    }
    #expect(calendars.entries().count == 1)
    #expect(try calendars.visitor(presenting: secret.text) == nil)
  }

  /// An entry whose visitor directory is gone (removed by hand) is swept
  /// without a lock to take; a misplaced file under the index is too.
  @Test func entriesOfVanishedVisitorsAndStrayFilesAreSwept() throws {
    let someone = visitor("someone")
    let secret = try calendars.create(for: someone)
    try FileManager.default.removeItem(atPath: someone.path)
    try Data("x".utf8).write(to: URL(fileURLWithPath: "\(data)/calendars/stray"))
    #expect(try calendars.visitor(presenting: secret.text) == nil)
    let swept = calendars.removeStaleEntries(dryRun: false)
    #expect(swept.removed.count == 2 && swept.failures.isEmpty)
    #expect(calendars.entries().isEmpty)
  }

  /// Changes of one visitor's address are serialised under their lock:
  /// however many threads replace at once, exactly one secret is left and
  /// it is the one the index leads to.
  @Test func concurrentReplacementsLeaveOneWorkingSecret() async throws {
    let someone = visitor("someone")
    _ = try calendars.create(for: someone)
    let calendars = self.calendars
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { _ = try? calendars.replace(for: someone) }
      }
    }
    let current = try #require(try calendars.secret(of: someone))
    #expect(try calendars.visitor(presenting: current.text) == someone)
    #expect(calendars.entries().count == 1)
  }
}
