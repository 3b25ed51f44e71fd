import FileSystem
import Foundation
import Storage
import TestSupport
import Testing

/// The share links: made, shown again, revoked and made anew, read-only and
/// edit links independent, no usable token at rest, and never a way in
/// after a crash between the steps of a change.
@Suite struct ShareLinksTests {
  let temporary = TemporaryDirectory("share-links")
  var data: String { temporary.path }
  var shares: ShareLinks { ShareLinks(dataDirectory: data, durable: false) }
  let secret = OwnerSecret.random()

  func owner(_ id: String) -> VisitorDirectory {
    VisitorDirectory(dataDirectory: data, visitorID: id)
  }

  /// A stop at a step, as a crash there would leave the files.
  struct Crash: Error {}

  func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// Every file's path and bytes under the data directory, as one text.
  func everythingStored() throws -> String {
    var text = ""
    for path in try FileManager.default.subpathsOfDirectory(atPath: data) {
      text += path + "\n"
      if let bytes = FileManager.default.contents(atPath: "\(data)/\(path)") {
        text += String(decoding: bytes, as: UTF8.self) + "\n"
      }
    }
    return text
  }

  @Test func aTokenIs128BitsInHexDerivedAndNeverPrinted() throws {
    let token = ShareToken.derive(secret: secret, listID: 3, kind: .edit, generation: 7)
    #expect(token.text.utf8.count == 32 && ShareToken.isWellFormed(token.text.utf8))
    #expect(ShareToken.byteCount * 8 == 128)
    #expect(!"\(token)".contains(token.text) && !String(reflecting: token).contains(token.text))
    // The same inputs make the same token; any other input another one.
    #expect(ShareToken.derive(secret: secret, listID: 3, kind: .edit, generation: 7) == token)
    let others = [
      ShareToken.derive(secret: secret, listID: 4, kind: .edit, generation: 7),
      ShareToken.derive(secret: secret, listID: 3, kind: .readOnly, generation: 7),
      ShareToken.derive(secret: secret, listID: 3, kind: .edit, generation: 8),
      ShareToken.derive(secret: OwnerSecret.random(), listID: 3, kind: .edit, generation: 7),
    ]
    #expect(Set(others.map(\.text) + [token.text]).count == 5)
    for text in ["", "AB", String(repeating: "A", count: 32), String(repeating: "g", count: 32)] {
      #expect(ShareToken(text: text) == nil, "\(text)")
    }
  }

  @Test func createMakesALinkThatOpensItsListAndNothingUsableIsStored() throws {
    let alice = owner("alice")
    let token = try shares.create(.edit, list: 7, for: alice, secret: secret, now: Date())
    let access = try #require(try shares.access(presenting: token.text))
    #expect(access.owner == alice && access.listID == 7 && access.kind == .edit)
    #expect(access.digest == token.digest)
    let entry = shares.entryPath(digest: token.digest)
    #expect(entry.hasPrefix("\(data)/shares/\(token.digest.prefix(2))/"))
    #expect(FileManager.default.contents(atPath: entry) == Data("\(alice.key)\n".utf8))
    #expect(try mode(entry) == 0o600)
    #expect(try mode(ShareLinks.path(of: alice)) == 0o600)
    // The token is in no file and no file name; its digest is.
    let stored = try everythingStored()
    #expect(!stored.contains(token.text))
    #expect(stored.contains(token.digest))
    let file = try #require(try shares.shares(of: alice))
    #expect(file.links.count == 1 && file.links[0].digest == token.digest)
  }

  @Test func theOwnerSeesTheLinkAgainAndARepeatedCreateKeepsIt() throws {
    let alice = owner("alice")
    let made = Date(timeIntervalSince1970: 1_800_000_000.75)
    let token = try shares.create(.readOnly, list: 2, for: alice, secret: secret, now: made)
    let shown = try shares.links(of: alice, list: 2, secret: secret)
    // Kept to the second, as the file keeps it.
    #expect(shown[.readOnly]?.token == token)
    #expect(shown[.readOnly]?.created == Date(timeIntervalSince1970: 1_800_000_000))
    #expect(shown[.edit] == nil)
    #expect(try shares.links(of: alice, list: 3, secret: secret).isEmpty)
    #expect(try shares.create(.readOnly, list: 2, for: alice, secret: secret, now: Date()) == token)
    #expect(shares.entries().count == 1)
    // Without the owner's secret (a browser that holds none) the link
    // exists but its token cannot be worked out.
    let blind = try shares.links(of: alice, list: 2, secret: nil)
    #expect(blind[.readOnly] != nil && blind[.readOnly]?.token == nil)
    let wrong = try shares.links(of: alice, list: 2, secret: OwnerSecret.random())
    #expect(wrong[.readOnly] != nil && wrong[.readOnly]?.token == nil)
  }

  @Test func revokingStopsTheLinkAndANewOneIsANewToken() throws {
    let alice = owner("alice")
    let old = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    #expect(try shares.revoke(.edit, list: 1, of: alice))
    #expect(try shares.access(presenting: old.text) == nil)
    #expect(shares.entries().isEmpty)
    #expect(try shares.links(of: alice, list: 1, secret: secret).isEmpty)
    #expect(try !shares.revoke(.edit, list: 1, of: alice))  // nothing left to revoke
    #expect(try !shares.revoke(.edit, list: 1, of: owner("nobody")))
    #expect(!FileManager.default.fileExists(atPath: owner("nobody").path))
    let new = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    #expect(new != old)
    #expect(try shares.access(presenting: old.text) == nil)
    #expect(try shares.access(presenting: new.text)?.listID == 1)
    // Round after round, a revoked token never comes back.
    var seen: Set<String> = [old.text, new.text]
    for _ in 0..<20 {
      try shares.revoke(.edit, list: 1, of: alice)
      let next = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
      #expect(seen.insert(next.text).inserted)
    }
  }

  @Test func readOnlyAndEditLinksAreIndependent() throws {
    let alice = owner("alice")
    let reader = try shares.create(.readOnly, list: 5, for: alice, secret: secret, now: Date())
    let editor = try shares.create(.edit, list: 5, for: alice, secret: secret, now: Date())
    #expect(reader != editor)
    #expect(try shares.access(presenting: reader.text)?.kind == .readOnly)
    #expect(try shares.access(presenting: editor.text)?.kind == .edit)
    try shares.revoke(.readOnly, list: 5, of: alice)
    #expect(try shares.access(presenting: reader.text) == nil)
    #expect(try shares.access(presenting: editor.text)?.kind == .edit)
    let again = try shares.create(.readOnly, list: 5, for: alice, secret: secret, now: Date())
    #expect(![reader, editor].contains(again))
    try shares.revoke(.edit, list: 5, of: alice)
    #expect(try shares.access(presenting: again.text)?.kind == .readOnly)
    #expect(try shares.access(presenting: editor.text) == nil)
  }

  @Test func onlyALiveLinkOfItsOwnOwnerLetsIn() throws {
    let alice = owner("alice")
    let bob = owner("bob")
    let aliceToken = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    let bobSecret = OwnerSecret.random()
    let bobToken = try shares.create(.edit, list: 1, for: bob, secret: bobSecret, now: Date())
    #expect(try shares.access(presenting: aliceToken.text)?.owner == alice)
    #expect(try shares.access(presenting: bobToken.text)?.owner == bob)
    let guess = ShareToken.derive(
      secret: OwnerSecret.random(), listID: 1, kind: .edit, generation: 1)
    #expect(try shares.access(presenting: guess.text) == nil)
    for malformed in [
      "", "abc", aliceToken.text.uppercased(), aliceToken.text + "0",
      String(aliceToken.text.dropLast()), "../../users", String(repeating: "z", count: 32),
      aliceToken.digest,
    ] {
      #expect(try shares.access(presenting: malformed) == nil, "\(malformed)")
    }
    // An index entry that names another owner does not let the token in there:
    // the owner's own record must hold its digest.
    let entry = shares.entryPath(digest: aliceToken.digest)
    try Data("\(bob.key)\n".utf8).write(to: URL(fileURLWithPath: entry))
    #expect(try shares.access(presenting: aliceToken.text) == nil)
    try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: entry))
    #expect(try shares.access(presenting: aliceToken.text) == nil)
    // A record whose digest differs in its last digit lets nothing in.
    let bobPath = ShareLinks.path(of: bob)
    var text = try String(contentsOfFile: bobPath, encoding: .utf8)
    let digit = bobToken.digest.last == "0" ? "1" : "0"
    text = text.replacingOccurrences(
      of: bobToken.digest, with: String(bobToken.digest.dropLast()) + digit)
    try Data(text.utf8).write(to: URL(fileURLWithPath: bobPath))
    #expect(try shares.access(presenting: bobToken.text) == nil)
  }

  /// A new link stopped after its index entry: no link (the change was
  /// never acknowledged); the entry leads nowhere and is swept; a retry works.
  @Test func aCrashAfterTheEntryLeavesNoLink() throws {
    let alice = owner("alice")
    #expect(throws: Crash.self) {
      try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date()) { step in
        if step == .entryWritten { throw Crash() }
      }
    }
    #expect(try shares.shares(of: alice) == nil)
    let entries = shares.entries()
    #expect(entries.count == 1 && !shares.isCurrent(entries[0]))
    #expect(shares.removeStaleEntries(dryRun: false).removed == [entries[0].path])
    let token = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    #expect(try shares.access(presenting: token.text)?.listID == 1)
    #expect(shares.entries().count == 1 && shares.isCurrent(shares.entries()[0]))
  }

  /// A new link stopped after its record: it works (the state after).
  @Test func aCrashAfterTheRecordLeavesTheLink() throws {
    let alice = owner("alice")
    var made: ShareToken?
    #expect(throws: Crash.self) {
      try shares.create(.readOnly, list: 4, for: alice, secret: secret, now: Date()) { step in
        if step == .recordWritten {
          made = try shares.links(of: alice, list: 4, secret: secret)[.readOnly]?.token
          throw Crash()
        }
      }
    }
    let token = try #require(made)
    #expect(try shares.access(presenting: token.text)?.kind == .readOnly)
    #expect(try shares.create(.readOnly, list: 4, for: alice, secret: secret, now: Date()) == token)
  }

  /// A revocation stopped after its record went: the link no longer works
  /// (the state after), though its entry is still there until swept.
  @Test func aCrashInARevocationNeverLetsTheLinkIn() throws {
    let alice = owner("alice")
    let token = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    #expect(throws: Crash.self) {
      try shares.revoke(.edit, list: 1, of: alice) { step in
        if step == .recordRemoved { throw Crash() }
      }
    }
    #expect(FileManager.default.fileExists(atPath: shares.entryPath(digest: token.digest)))
    #expect(try shares.access(presenting: token.text) == nil)
    #expect(shares.removeStaleEntries(dryRun: true).removed.count == 1)
    #expect(shares.removeStaleEntries(dryRun: false).removed.count == 1)
    #expect(shares.entries().isEmpty)
  }

  /// The links of lists gone for good (neither kept nor in Recently
  /// deleted: `keeping`) go with the next link made, entries and all.
  @Test func linksOfListsGoneForGoodAreDropped() throws {
    let alice = owner("alice")
    let gone = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    let kept = try shares.create(.edit, list: 2, for: alice, secret: secret, now: Date())
    let new = try shares.create(
      .readOnly, list: 3, for: alice, secret: secret, now: Date(), keeping: [2, 3])
    #expect(try shares.access(presenting: gone.text) == nil)
    #expect(try shares.access(presenting: kept.text)?.listID == 2)
    #expect(try shares.access(presenting: new.text)?.listID == 3)
    #expect(shares.entries().count == 2 && shares.entries().allSatisfy(shares.isCurrent))
  }

  /// A link made with a secret that is not the one it was made with (the
  /// owner's secret lost with an unreadable devices file) replaces the
  /// old link, which stops working.
  @Test func aLinkTheSecretNoLongerMakesIsReplaced() throws {
    let alice = owner("alice")
    let old = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    let other = OwnerSecret.random()
    let new = try shares.create(.edit, list: 1, for: alice, secret: other, now: Date())
    #expect(new != old)
    #expect(try shares.access(presenting: old.text) == nil)
    #expect(try shares.access(presenting: new.text)?.kind == .edit)
    #expect(shares.entries().count == 1)
  }

  /// An unreadable shares file is set aside: its links stop working; the
  /// links made afterwards start from a random generation, so a revoked
  /// token never comes back even though the file that knew it is gone.
  @Test func anUnreadableFileIsSetAsideAndNoOldTokenComesBack() throws {
    let alice = owner("alice")
    var old: [String] = []
    for _ in 0..<3 {
      old.append(try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date()).text)
      try shares.revoke(.edit, list: 1, of: alice)
    }
    let live = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: ShareLinks.path(of: alice)))
    #expect(try shares.access(presenting: live.text) == nil)
    #expect(try shares.shares(of: alice) == nil)
    let kept = try FileManager.default.contentsOfDirectory(atPath: alice.path)
    #expect(kept.contains { $0.hasPrefix("Shares.plist.corrupt-") })
    let fresh = try shares.create(.edit, list: 1, for: alice, secret: secret, now: Date())
    #expect(!(old + [live.text]).contains(fresh.text))
    #expect(try shares.access(presenting: fresh.text)?.listID == 1)
  }

  @Test func decodingIsStrict() throws {
    var good = Shares()
    good.nextGeneration = 5
    let digest = String(repeating: "ab", count: 32)
    good.links = [
      Shares.Link(
        list: 1, kind: .edit, generation: 4, created: Date(timeIntervalSince1970: 1_800_000_000),
        digest: digest)
    ]
    #expect(try Shares.decode(try good.encoded()) == good)
    func refused(_ change: (inout Shares) -> Void) -> Bool {
      var shares = good
      change(&shares)
      return (try? Shares.decode(try shares.encoded())) == nil
    }
    #expect(refused { $0.version = 2 })
    #expect(refused { $0.nextGeneration = 4 })
    #expect(refused { $0.links[0].list = 0 })
    #expect(refused { $0.links[0].generation = 0 })
    #expect(refused { $0.links[0].digest = "AB" + String(digest.dropFirst(2)) })
    #expect(refused { $0.links[0].digest = "../x" })
    #expect(refused { $0.links.append($0.links[0]) })
    #expect(
      refused {
        $0.links.append(
          Shares.Link(
            list: 1, kind: .edit, generation: 3, created: Date(),
            digest: String(repeating: "cd", count: 32)))
      })
    #expect(
      refused {
        $0.links.append(
          Shares.Link(
            list: 2, kind: .edit, generation: 4, created: Date(),
            digest: String(repeating: "cd", count: 32)))
      })
    let unknownKind = try String(decoding: good.encoded(), as: UTF8.self).replacingOccurrences(
      of: "<string>edit</string>", with: "<string>admin</string>")
    #expect((try? Shares.decode(Data(unknownKind.utf8))) == nil)
    #expect((try? Shares.decode(Data([0xFF, 0xFE, 0x00]))) == nil)
  }

  /// Changes of one owner's links are serialised under their lock: however
  /// many threads make and revoke at once, what is left is consistent.
  @Test func concurrentChangesLeaveOneConsistentState() async throws {
    let alice = owner("alice")
    let shares = self.shares
    let secret = self.secret
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<16 {
        group.addTask {
          let kind: ShareKind = index % 2 == 0 ? .edit : .readOnly
          if index % 3 == 0 {
            _ = try? shares.revoke(kind, list: 1, of: alice)
          } else {
            _ = try? shares.create(kind, list: 1, for: alice, secret: secret, now: Date())
          }
        }
      }
    }
    let links = try shares.links(of: alice, list: 1, secret: secret)
    for (kind, link) in links {
      let token = try #require(link.token)
      #expect(try shares.access(presenting: token.text)?.kind == kind)
    }
    // Every entry left belongs to a live link (a revoked one's entry went).
    #expect(shares.entries().count == links.count)
  }
}
