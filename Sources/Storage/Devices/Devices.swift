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

  /// Calendar apps an owner may have at once.
  package static let maximumApps = 20

  /// A calendar app that reaches the owner's lists over CalDAV with an
  /// app password (`AppPassword`), and nothing else of theirs.
  package struct App: Codable, Sendable, Equatable {
    /// A small number that names it on the Devices screen (never reused).
    package var id: Int
    /// The SHA-256 of its password.
    package var digest: String
    /// When it was made.
    package var made: Date

    package init(id: Int, digest: String, made: Date) {
      self.id = id
      self.digest = digest
      self.made = made
    }

    /// The user name the app signs in with beside its password.
    package var userName: String { "app-\(id)" }
  }

  package var version: Int = Devices.currentVersion
  package var nextBrowserID: Int = 1
  package var browsers: [Browser] = []
  /// At most one: a new code replaces the one before.
  package var code: PendingCode?
  /// The calendar apps; a file without them (every file before them) has none.
  package var apps: [App] = []
  package var nextAppID: Int = 1

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
    apps = try container.decodeIfPresent([App].self, forKey: .apps) ?? []
    nextAppID = try container.decodeIfPresent(Int.self, forKey: .nextAppID) ?? 1
    try validate()
  }

  enum CodingKeys: String, CodingKey {
    case version, nextBrowserID, browsers, code, apps, nextAppID
  }

  /// The apps only when there are any: a file without is the file as it
  /// was before them.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(nextBrowserID, forKey: .nextBrowserID)
    try container.encode(browsers, forKey: .browsers)
    try container.encodeIfPresent(code, forKey: .code)
    if !apps.isEmpty || nextAppID > 1 {
      try container.encode(apps, forKey: .apps)
      try container.encode(nextAppID, forKey: .nextAppID)
    }
  }

  /// The app whose password has this digest (compared in constant time).
  package func app(digest: String) -> App? {
    apps.first { SecretDigest.constantTimeEqual($0.digest, digest) }
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
    guard apps.count <= Self.maximumApps else {
      throw Invalid(description: "more than \(Self.maximumApps) apps")
    }
    var appIDs: Set<Int> = []
    for app in apps {
      guard VisitorDirectory.isKey(app.digest, inShard: String(app.digest.prefix(2))),
        digests.insert(app.digest).inserted, app.id > 0, app.id < nextAppID,
        appIDs.insert(app.id).inserted
      else { throw Invalid(description: "an app entry is malformed or repeated") }
    }
  }
}
