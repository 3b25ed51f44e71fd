import Foundation
import Support

/// An owner's browsers and their pending link code: `Devices.plist` in the
/// owner's directory, written only when a second browser is first asked
/// for (an owner with one browser has no such file).
///
/// The file is the one place that says which browsers act for the owner:
/// a browser is signed in exactly while it is listed here, so redeeming a
/// code and signing a browser out are each one atomic write of this file.
package struct Devices: OwnerFileValue {
  package static let fileKind = "devices"
  package static let currentVersion = 1
  /// Browsers an owner may have at once.
  package static let maximumBrowsers = 50
  /// How long a link code works.
  package static let codeLifetime: TimeInterval = 15 * 60
  /// The longest browser name kept.
  package static let maximumNameLength = 80
  /// How long a newly linked browser may sign out only itself and the
  /// browsers linked after it: a leaked code must not let its holder
  /// sign the owner's own browsers out.
  package static let newBrowserWait: TimeInterval = 24 * 3_600

  /// A browser that acts for the owner.
  package struct Browser: Codable, Sendable, Equatable {
    /// A small number that names it on the Devices screen (never reused).
    package var id: Int
    /// The SHA-256 of its token (see `SecretDigest`).
    package var digest: String
    /// A readable name made from its User-Agent, e.g. "Firefox on Linux".
    package var name: String
    package var firstSeen: Date
    /// Updated at most once a day, when its cookie is renewed.
    package var lastSeen: Date
    /// The owner's secret sealed under its token (see `OwnerSecret`).
    package var sealedSecret: Data

    package init(
      id: Int, digest: String, name: String, firstSeen: Date, lastSeen: Date, sealedSecret: Data
    ) {
      self.id = id
      self.digest = digest
      self.name = name
      self.firstSeen = firstSeen
      self.lastSeen = lastSeen
      self.sealedSecret = sealedSecret
    }
  }

  /// A link code not yet spent.
  package struct PendingCode: Codable, Sendable, Equatable {
    /// The SHA-256 of its canonical form.
    package var digest: String
    package var expires: Date
    /// The owner's secret sealed under the code.
    package var sealedSecret: Data

    package init(digest: String, expires: Date, sealedSecret: Data) {
      self.digest = digest
      self.expires = expires
      self.sealedSecret = sealedSecret
    }
  }

  package var version: Int = Devices.currentVersion
  package var nextBrowserID: Int = 1
  package var browsers: [Browser] = []
  /// At most one: a new code replaces the one before.
  package var code: PendingCode?

  package init() {}

  /// False until a browser is first listed, that is, for an owner without
  /// a devices file (ids are never reused, so `nextBrowserID` tells).
  package var hasListedAnyBrowser: Bool { nextBrowserID > 1 }

  /// The browser whose token has this digest.
  package func browser(digest: String) -> Browser? {
    browsers.first { $0.digest == digest }
  }

  /// Until when `browser` may not sign out the browsers linked before it
  /// (see `newBrowserWait`); nil once it may.
  package func newBrowserWait(of browser: Browser, now: Date) -> Date? {
    let until = browser.firstSeen.addingTimeInterval(Self.newBrowserWait)
    let older = browsers.contains { $0.id < browser.id }
    return older && until > now ? until : nil
  }

  /// Adds a browser and returns it.
  @discardableResult
  package mutating func add(
    digest: String, name: String, now: Date, sealedSecret: Data
  ) -> Browser {
    let browser = Browser(
      id: nextBrowserID, digest: digest, name: String(name.prefix(Self.maximumNameLength)),
      firstSeen: now, lastSeen: now, sealedSecret: sealedSecret)
    nextBrowserID += 1
    browsers.append(browser)
    return browser
  }

  // MARK: Decoding

  /// A file written by a newer backend: not damaged, and never set aside.
  package struct NewerVersion: Error, CustomStringConvertible {
    package var version: Int
    package var description: String {
      "devices file of a newer version (\(version); this backend reads \(Devices.currentVersion))"
    }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard version <= Self.currentVersion else { throw NewerVersion(version: version) }
    try Self.refuseOtherVersions(version)
    nextBrowserID = try container.decode(Int.self, forKey: .nextBrowserID)
    browsers = try container.decode([Browser].self, forKey: .browsers)
    code = try container.decodeIfPresent(PendingCode.self, forKey: .code)
    try validate()
  }

  /// The checks a decoded file must pass: digests of the right form, each
  /// browser once, ids below `nextBrowserID`, at most `maximumBrowsers`.
  func validate() throws {
    guard browsers.count <= Self.maximumBrowsers else {
      throw Invalid(description: "more than \(Self.maximumBrowsers) browsers")
    }
    var digests: Set<String> = []
    var ids: Set<Int> = []
    for browser in browsers {
      guard VisitorDirectory.isKey(browser.digest, inShard: String(browser.digest.prefix(2))),
        digests.insert(browser.digest).inserted, browser.id > 0, browser.id < nextBrowserID,
        ids.insert(browser.id).inserted, browser.name.count <= Self.maximumNameLength
      else { throw Invalid(description: "a browser entry is malformed or repeated") }
    }
    if let code, !VisitorDirectory.isKey(code.digest, inShard: String(code.digest.prefix(2))) {
      throw Invalid(description: "the pending code's digest is malformed")
    }
  }
}
