import FileSystem
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Random sequences of codes made, redeemed (rightly, wrongly, late, again,
/// after a newer one), browsers signed out (one, all but one) and tokens
/// looked up, over a few owners and many browsers, applied both through
/// the store and to a plain model of who acts for whom; the two must agree
/// after every step. Each failure names its seed and step (`#require`
/// stops at the first).
@Suite struct DevicePropertyTests {
  /// The model: each owner's browsers and pending code, nothing else.
  struct Model {
    struct Browser: Equatable {
      var id: Int
      var token: String
      var linked: Date
    }
    struct Owner {
      var founding: String
      var key: String
      var browsers: [Browser] = []
      var nextID = 1
      var code: (code: LinkCode, expires: Date)?
      var secret: [UInt8]?
      /// Every browser it ever had.
      var tokens: [String] = []
    }
    var owners: [Owner]

    /// The owner `token` acts for and its id there.
    func actingFor(_ token: String) -> (owner: Int, id: Int?)? {
      for (index, owner) in owners.enumerated() {
        if let browser = owner.browsers.first(where: { $0.token == token }) {
          return (index, browser.id)
        }
        if owner.nextID == 1 && owner.founding == token { return (index, nil) }
      }
      return nil
    }

    /// What `resolve` must answer: the owner it acts for; else, for a
    /// browser signed out (founding or linked), `.signedOut`; else, for a
    /// stranger, the empty directory its own digest names.
    func resolution(_ token: String, data: String) -> DeviceStore.Resolution {
      if let (index, id) = actingFor(token) {
        return .owner(VisitorDirectory(dataDirectory: data, key: owners[index].key), browserID: id)
      }
      if owners.contains(where: { $0.tokens.contains(token) }) { return .signedOut }
      return .owner(VisitorDirectory(dataDirectory: data, visitorID: token), browserID: nil)
    }
  }

  @Test(arguments: [UInt64(14), 2_026, 90_210])
  func randomChangesAgreeWithTheModel(seed: UInt64) throws {
    let temporary = TemporaryDirectory("device-property")
    let data = temporary.path
    let devices = DeviceStore(dataDirectory: data, durable: false)
    var random = SeededGenerator(seed: seed)
    var now = Date(timeIntervalSince1970: 1_750_000_000)
    let founding = (0..<4).map { _ in browserToken(using: &random) }
    var model = Model(
      owners: founding.map { Model.Owner(founding: $0, key: SecretDigest.of($0), tokens: [$0]) })
    let strangers = (0..<4).map { _ in browserToken(using: &random) }
    var tokens = founding + strangers
    var codes: [LinkCode] = []
    var counts: [String: Int] = [:]

    for step in 0..<2_000 {
      let context = "seed \(seed), step \(step)"
      now = now.addingTimeInterval(TimeInterval(Int.random(in: 0...240, using: &random)))
      let roll = Int.random(in: 0..<100, using: &random)
      // Owners whose browsers were all signed out are reached no more: new
      // ones come, and most steps are about those still reached.
      var alive = model.owners.indices.filter {
        model.owners[$0].nextID == 1 || !model.owners[$0].browsers.isEmpty
      }
      if alive.count < 3 || Int.random(in: 0..<100, using: &random) == 0 {
        let token = browserToken(using: &random)
        model.owners.append(
          Model.Owner(founding: token, key: SecretDigest.of(token), tokens: [token]))
        tokens.append(token)
        alive.append(model.owners.count - 1)
        counts["new owner", default: 0] += 1
      }
      let ownerIndex =
        Int.random(in: 0..<10, using: &random) == 0
        ? Int.random(in: 0..<model.owners.count, using: &random)
        : alive.randomElement(using: &random)!
      let owner = model.owners[ownerIndex]
      let directory = VisitorDirectory(dataDirectory: data, key: owner.key)
      var touched = [ownerIndex]

      switch roll {
      case 0..<20:
        // A code, mostly asked for by one of the owner's browsers.
        let members = owner.browsers.map(\.token) + (owner.nextID == 1 ? [owner.founding] : [])
        let token =
          members.isEmpty || Int.random(in: 0..<5, using: &random) == 0
          ? tokens.randomElement(using: &random)! : members.randomElement(using: &random)!
        let acts = model.actingFor(token).map { $0.owner == ownerIndex } ?? false
        do {
          let (code, expires) = try devices.createCode(
            for: directory, token: token, name: "Browser", now: now)
          try #require(acts, "\(context): a code for a browser not the owner's")
          if owner.nextID == 1 {
            model.owners[ownerIndex].browsers = [Model.Browser(id: 1, token: token, linked: now)]
            model.owners[ownerIndex].nextID = 2
            model.owners[ownerIndex].secret = try devices.existingSecret(
              of: directory, token: token)?.bytes
          }
          model.owners[ownerIndex].code = (code, expires)
          codes.append(code)
          counts["code", default: 0] += 1
        } catch DeviceStore.Refusal.signedOut {
          try #require(!acts, "\(context): the owner's browser refused a code")
          counts["code refused", default: 0] += 1
        }

      case 20..<55:
        // A redeem: the right code, one spent, replaced, cancelled or
        // expired, or a guess.
        let kind = Int.random(in: 0..<4, using: &random)  // pending (twice as often), old, guess
        let code: LinkCode
        if kind < 2, let pending = model.owners.compactMap(\.code).randomElement(using: &random) {
          code = pending.code
        } else if kind == 2, let old = codes.randomElement(using: &random) {
          code = old
        } else {
          code = LinkCode.random(using: &random)
        }
        let token = browserToken(using: &random)
        let holder = model.owners.firstIndex { $0.code?.code == code }
        if let holder { touched.append(holder) }
        let valid = holder.map { model.owners[$0].code!.expires > now } ?? false
        do {
          let redeemedFor = try devices.redeem(code, newToken: token, name: "New", now: now)
          let index = try #require(holder, "\(context): a code nobody holds was redeemed")
          try #require(valid, "\(context): an expired code was redeemed")
          try #require(model.owners[index].browsers.count < Devices.maximumBrowsers)
          try #require(redeemedFor.key == model.owners[index].key, "\(context)")
          let id = model.owners[index].nextID
          model.owners[index].browsers.append(Model.Browser(id: id, token: token, linked: now))
          model.owners[index].tokens.append(token)
          model.owners[index].nextID += 1
          model.owners[index].code = nil
          tokens.append(token)
          let secret = try devices.existingSecret(
            of: VisitorDirectory(dataDirectory: data, key: model.owners[index].key), token: token)
          try #require(
            secret?.bytes == model.owners[index].secret,
            "\(context): the new browser holds another secret")
          counts["redeemed", default: 0] += 1
        } catch DeviceStore.Refusal.invalidCode {
          try #require(!valid, "\(context): a valid code was refused")
          let why = holder != nil ? "expired" : codes.contains(code) ? "reused" : "guess"
          counts[why, default: 0] += 1
        } catch DeviceStore.Refusal.tooManyBrowsers {
          let index = try #require(holder)
          try #require(valid && model.owners[index].browsers.count == Devices.maximumBrowsers)
          counts["too many", default: 0] += 1
        }
        // The browser that redeemed is looked up at once.
        try #require(
          try devices.resolve(token: token) == model.resolution(token, data: data), "\(context)")

      case 55..<72:
        // Sign out one browser (sometimes an id that is not listed), asked
        // by one of the owner's browsers (sometimes another token). The
        // last browser goes only confirmed (then sometimes), and a browser
        // linked less than a day ago signs out no older one.
        let id =
          owner.browsers.isEmpty || Int.random(in: 0..<8, using: &random) == 0
          ? Int.random(in: 1...(owner.nextID + 1), using: &random)
          : owner.browsers.randomElement(using: &random)!.id
        let asker =
          owner.browsers.isEmpty || Int.random(in: 0..<8, using: &random) == 0
          ? tokens.randomElement(using: &random)!
          : owner.browsers.randomElement(using: &random)!.token
        let confirmed = Int.random(in: 0..<8, using: &random) == 0
        let listed = owner.browsers.contains { $0.id == id }
        let asking = owner.browsers.first { $0.token == asker }
        let isNew = asking.map { asking in
          asking.linked.addingTimeInterval(Devices.newBrowserWait) > now
            && owner.browsers.contains { $0.id < asking.id }
        }
        do {
          let signedOut = try devices.signOut(
            browser: id, of: directory, askedBy: asker, now: now,
            lastBrowser: confirmed ? .confirmed { true } : .refuse)
          try #require(signedOut == (listed && asking != nil), "\(context): sign out \(id)")
          try #require(asking != nil || owner.nextID == 1, "\(context): asked by a stranger")
          if signedOut {
            try #require(!(isNew == true && id < asking!.id), "\(context): a new browser's")
            try #require(owner.browsers.count > 1 || confirmed, "\(context): the last one")
            model.owners[ownerIndex].browsers.removeAll { $0.id == id }
            model.owners[ownerIndex].code = nil
          }
          counts[signedOut ? "signed out" : "sign out nobody", default: 0] += 1
        } catch DeviceStore.Refusal.signedOut {
          try #require(asking == nil && owner.nextID > 1, "\(context): refused its browser")
          counts["sign out refused", default: 0] += 1
        } catch DeviceStore.Refusal.newBrowser {
          try #require(listed && isNew == true && id < asking!.id, "\(context): refused")
          counts["new browser refused", default: 0] += 1
        } catch DeviceStore.Refusal.lastBrowser {
          try #require(listed && owner.browsers.count == 1 && !confirmed, "\(context)")
          counts["last browser refused", default: 0] += 1
        }

      case 72..<80:
        // Sign out everywhere else, mostly from one of the owner's browsers.
        let token =
          owner.browsers.isEmpty || Int.random(in: 0..<4, using: &random) == 0
          ? tokens.randomElement(using: &random)!
          : owner.browsers.randomElement(using: &random)!.token
        let asking = owner.browsers.first { $0.token == token }
        let waits = asking.map { asking in
          asking.linked.addingTimeInterval(Devices.newBrowserWait) > now
            && owner.browsers.contains { $0.id < asking.id }
        }
        do {
          let count = try devices.signOutOthers(of: directory, keeping: token, now: now)
          try #require(asking != nil || owner.nextID == 1, "\(context): signed out by a stranger")
          try #require(waits != true || count == 0, "\(context): by a new browser")
          try #require(count == max(0, owner.browsers.count - 1), "\(context)")
          if count > 0 {
            model.owners[ownerIndex].browsers.removeAll { $0.token != token }
            model.owners[ownerIndex].code = nil
          }
          counts["signed out others", default: 0] += 1
        } catch DeviceStore.Refusal.signedOut {
          try #require(
            asking == nil && owner.nextID > 1, "\(context): a browser's sign-out refused")
          counts["others refused", default: 0] += 1
        } catch DeviceStore.Refusal.newBrowser {
          try #require(waits == true, "\(context): refused a browser that may")
          counts["others refused to a new browser", default: 0] += 1
        }

      default:
        // A look-up of any token.
        let token = tokens.randomElement(using: &random)!
        try #require(
          try devices.resolve(token: token) == model.resolution(token, data: data), "\(context)")
        counts["resolved", default: 0] += 1
      }

      // After every step: the owners it changed, every browser they ever
      // had, and a few other tokens; now and then, everything.
      let sample = (0..<8).map { _ in tokens.randomElement(using: &random)! }
      try requireAgree(
        model, devices, data: data, owners: touched,
        tokens: touched.flatMap { model.owners[$0].tokens } + sample, context: context)
      if step % 50 == 49 {
        // A store that starts from the disk agrees too, and the indexes
        // hold exactly the browsers ever linked (a signed-out one's entry
        // stays) and the pending codes.
        let fresh = DeviceStore(dataDirectory: data, durable: false)
        try requireAgree(
          model, fresh, data: data, owners: Array(model.owners.indices), tokens: tokens,
          context: "\(context), fresh")
        let linked = model.owners.flatMap { owner in
          owner.tokens.filter { $0 != owner.founding }.map { SecretDigest.of($0) }
        }
        try #require(
          Set(fresh.browserIndex.entries().compactMap(\.digest)) == Set(linked),
          "\(context): the browser index")
        try #require(
          Set(fresh.codeIndex.entries().compactMap(\.digest))
            == Set(model.owners.compactMap { $0.code?.code.digest }), "\(context): the code index")
      }
    }
    // Every kind of step happened.
    for kind in [
      "code", "code refused", "redeemed", "expired", "reused", "guess", "signed out",
      "sign out nobody", "sign out refused", "new browser refused", "last browser refused",
      "signed out others", "others refused", "others refused to a new browser", "resolved",
      "new owner",
    ] {
      #expect(counts[kind, default: 0] > 0, "seed \(seed): no \(kind) in \(counts)")
    }
  }

  /// The devices of `owners` (as `devices` reads them: from its cache, or
  /// from the disk for a fresh store) are what the model says, and
  /// `tokens` resolve as it says.
  private func requireAgree(
    _ model: Model, _ devices: DeviceStore, data: String, owners: [Int], tokens: [String],
    context: String
  ) throws {
    for owner in owners.map({ model.owners[$0] }) {
      let directory = VisitorDirectory(dataDirectory: data, key: owner.key)
      let stored = try devices.devices(of: directory)
      try #require((stored == nil) == (owner.nextID == 1), "\(context): the file")
      guard let stored else { continue }
      try #require(
        stored.browsers.map(\.id) == owner.browsers.map(\.id)
          && stored.browsers.map(\.digest) == owner.browsers.map { SecretDigest.of($0.token) },
        "\(context): the browsers listed")
      try #require(stored.nextBrowserID == owner.nextID, "\(context)")
      try #require(stored.code?.digest == owner.code?.code.digest, "\(context): the code")
      try #require(stored.code?.expires == owner.code?.expires, "\(context)")
    }
    for token in tokens {
      try #require(
        try devices.resolve(token: token) == model.resolution(token, data: data),
        "\(context): token \(token.prefix(8))…")
    }
  }
}
