import FileSystem
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A process that links and signs out browsers, killed with SIGKILL at
/// random moments: after every kill the owner's browsers are those before
/// or after the call under way, never half of it.
@Suite struct DeviceProcessTests {
  let temporary = TemporaryDirectory("device-process")
  var data: String { temporary.path }

  /// What the child had done when it was killed, replayed from its lines
  /// (see Tests/Tools/StoreChild): the browsers linked once every call it
  /// reported returned, and the call it had begun, if any.
  struct Replay {
    /// Linked browsers (not the founding one): digest → token.
    var linked: [String: String]
    var begun: Substring?
    /// Every browser the child began to link.
    var tokens: [String] = []
    /// The digests of those it linked for sure (the redeem returned, or
    /// was found on disk).
    var committed: Set<String> = []
    var calls = 0

    /// Notes that `call` took effect.
    mutating func commit(_ call: Substring) {
      linked = Self.applying(call, to: linked)
      let words = call.split(separator: " ")
      if words.count == 3 && words[1] == "redeem" {
        committed.insert(SecretDigest.of(String(words[2])))
      }
    }

    static func applying(_ call: Substring, to linked: [String: String]) -> [String: String] {
      var linked = linked
      let words = call.split(separator: " ")
      switch words.dropFirst().first {
      case "redeem": linked[SecretDigest.of(String(words[2]))] = String(words[2])
      case "signout": linked[String(words[2])] = nil
      case "others": linked = [:]
      default: break  // a code changes no browser
      }
      return linked
    }

    mutating func replay(_ printed: Data) {
      for line in String(decoding: printed, as: UTF8.self).split(separator: "\n") {
        if line == "done", let call = begun {
          commit(call)
          begun = nil
          calls += 1
        } else {
          begun = line
          let words = line.split(separator: " ")
          if words.count == 3 && words[1] == "redeem" { tokens.append(String(words[2])) }
        }
      }
    }
  }

  /// Stops at the first kill that finds anything wrong (`#require`).
  ///
  /// The design allows exactly one kind of half state: an index entry that
  /// leads to an owner who does not list it, which resolves as signed out.
  /// A signed-out browser's entry stays so by design; besides those, only
  /// a redeem a kill interrupted may leave one (written before the commit
  /// that did not come), and a code's entry that leads nowhere is only
  /// ever an interrupted call's. A linked browser's entry is always there
  /// once its redeem committed, and the pending code's.
  @Test func killedDuringRedeemAndSignOutLeavesTheBrowsersBeforeOrAfter() throws {
    let child = try BuiltTool.path("store-child")
    let founding = browserToken()
    let owner = VisitorDirectory(dataDirectory: data, visitorID: founding)
    var random = SeededGenerator(seed: 14)
    var known = Replay(linked: [:])
    var interruptedCalls = 0
    var leftoversAtEnd = 0
    var (kills, foundBefore, foundAfter) = (0, 0, 0)
    let start = Date()
    // How long a child may run before its kill, at most. A loaded machine
    // may not finish one durable call in 15 ms: a kill that found no call
    // returned since the last one doubles the window, one that found some
    // halves it again, so kills keep landing inside calls and calls keep
    // completing between them.
    var window: UInt32 = 15_000

    while kills < 100 || (kills < 200 && Date().timeIntervalSince(start) < 10) {
      let process = try SpawnedChild(child, ["devices", data, founding])
      // Wait for its first line, then let it run a random while before SIGKILL.
      var printed = process.readSome()
      usleep(UInt32.random(in: 0..<window, using: &random))
      kill(process.pid, SIGKILL)
      printed += process.readToEnd()
      try #require(
        process.wait().signal == SIGKILL,
        "the child died on its own: \(String(decoding: printed, as: UTF8.self).suffix(200))")
      kills += 1
      let context = "kill \(kills)"

      var replay = known
      replay.begun = nil
      replay.replay(printed)
      window = replay.calls > known.calls ? max(window / 2, 15_000) : min(window * 2, 1_000_000)
      let before = replay.linked
      let after = replay.begun.map { Replay.applying($0, to: before) } ?? before
      if replay.begun != nil { interruptedCalls += 1 }

      // The devices file decodes, and lists the browsers before or after.
      let stored: Devices?
      do {
        stored = try devicesOnDisk(of: owner)
      } catch {
        Issue.record("\(context): Devices.plist does not decode: \(error)")
        return
      }
      guard let stored else {
        try #require(replay.calls == 0 && after.isEmpty, "\(context): no devices file")
        known = replay
        continue
      }
      let listed = Set(stored.browsers.map(\.digest))
      try #require(listed.contains(owner.key), "\(context): the founding browser is not listed")
      let linked = listed.subtracting([owner.key])
      if linked == Set(before.keys) {
        if replay.begun != nil { foundBefore += 1 }
      } else {
        try #require(
          linked == Set(after.keys),
          """
          \(context): listed \(linked.count) linked browsers, neither the \(before.count) \
          before nor the \(after.count) after \(replay.begun ?? "nothing")
          """)
        replay.commit(replay.begun!)
        foundAfter += 1
      }
      replay.begun = nil
      known = replay

      // Every browser linked for sure has its entry leading to the owner
      // (listed or signed out); any other entry is of a redeem begun.
      // Besides entries, an index holds at most the temporary files of
      // writes a kill cut short (`.<digest>.tmp-…`, never read).
      let browsers = DigestIndex(directory: "\(data)/browsers", durable: false)
      try #require(linked.isSubset(of: replay.committed), "\(context)")
      for digest in replay.committed {
        try #require(
          try browsers.owner(ofDigest: digest) == owner.key,
          "\(context): a linked browser without its index entry")
      }
      let begunDigests = Set(replay.tokens.map(SecretDigest.of))
      var leftovers = 0
      for entry in browsers.entries() {
        guard let digest = entry.digest else {
          try #require(Self.isLeftover(entry.path), "\(context): \(entry.path)")
          leftovers += 1
          continue
        }
        try #require(entry.key == owner.key, "\(context): \(entry.path)")
        try #require(
          begunDigests.contains(digest), "\(context): an entry of no browser the child linked")
      }
      // The pending code's entry is there; each interrupted call leaves at
      // most one other file in either index.
      let codes = DigestIndex(directory: "\(data)/links", durable: false)
      if let code = stored.code {
        try #require(
          try codes.owner(ofDigest: code.digest) == owner.key,
          "\(context): the pending code without its index entry")
      }
      var strayCodes = 0
      for entry in codes.entries() where entry.digest != stored.code?.digest {
        if entry.digest == nil {
          try #require(Self.isLeftover(entry.path), "\(context): \(entry.path)")
          leftovers += 1
        } else {
          try #require(entry.key == owner.key, "\(context): \(entry.path)")
          strayCodes += 1
        }
      }
      try #require(
        strayCodes + leftovers <= interruptedCalls,
        "\(context): \(strayCodes) code entries leading nowhere, \(leftovers) temporary files")
      leftoversAtEnd = leftovers

      // Each browser acts for the owner exactly while it is listed; once
      // linked and no longer listed, it is signed out.
      let devices = DeviceStore(dataDirectory: data, durable: false)
      try #require(
        try devices.resolve(token: founding) == .owner(owner, browserID: 1), "\(context)")
      for token in replay.tokens {
        let digest = SecretDigest.of(token)
        let resolved = try devices.resolve(token: token)
        if let browser = stored.browser(digest: digest) {
          try #require(resolved == .owner(owner, browserID: browser.id), "\(context)")
        } else if replay.committed.contains(digest) {
          try #require(resolved == .signedOut, "\(context): a browser signed out")
        } else if case .owner(let other, _) = resolved {
          try #require(other != owner, "\(context): a browser not listed acts for the owner")
        }
      }
    }
    #expect(known.calls >= kills / 4, "the child made progress between kills")
    #expect(interruptedCalls > kills / 2, "most kills stopped a call")
    #expect(foundBefore > 0 && foundAfter > 0, "before \(foundBefore), after \(foundAfter)")
    print(
      "device crash test: \(kills) kills, \(known.calls) calls, \(interruptedCalls) interrupted "
        + "(\(foundBefore) found before, \(foundAfter) after), \(leftoversAtEnd) temporary files left"
    )
  }

  /// A temporary file of `AtomicFile.write` in an index's shard.
  static func isLeftover(_ path: String) -> Bool {
    let name = AtomicFile.split(path).name
    return name.hasPrefix(".") && name.contains(".tmp-")
      && VisitorDirectory.isKey(
        String(name.dropFirst().prefix(64)), inShard: String(name.dropFirst().prefix(2)))
  }
}
