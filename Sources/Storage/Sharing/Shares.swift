import ChecklistsModel
import Foundation
import Support

/// An owner's share links: `Shares.plist` in the owner's directory,
/// written when their first link is made.
///
/// It holds, per list and kind, only what cannot be worked out again: the
/// link's generation (the token is derived from it, see `ShareToken`), when
/// it was made, and the SHA-256 of its token. A link is live exactly while
/// its record is here; revoking it removes the record.
package struct Shares: OwnerFileValue {
  package static let fileKind = "shares"
  package static let currentVersion = 1
  /// Links an owner may have at once: two for every list they may keep
  /// and every list Recently deleted may hold (a deleted list keeps its
  /// links, so that restoring it restores them).
  package static let maximumLinks = 2 * (Limits.maximumLists + Limits.maximumDeletions)

  /// One live link.
  package struct Link: Codable, Sendable, Equatable {
    /// The shared list's id.
    package var list: Int
    package var kind: ShareKind
    /// What the token was derived with; never given to two links.
    package var generation: Int
    package var created: Date
    /// The SHA-256 of the token (see `SecretDigest`).
    package var digest: String

    package init(list: Int, kind: ShareKind, generation: Int, created: Date, digest: String) {
      self.list = list
      self.kind = kind
      self.generation = generation
      self.created = created
      self.digest = digest
    }
  }

  package var version: Int = Shares.currentVersion
  /// The generation the next link gets: it only grows, so a token once
  /// revoked is never derived again.
  package var nextGeneration: Int = 1
  package var links: [Link] = []

  package init() {}

  /// The link of `kind` to list `listID`, if there is one.
  package func link(list listID: Int, kind: ShareKind) -> Link? {
    links.first { $0.list == listID && $0.kind == kind }
  }

  // MARK: Decoding

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    try Self.refuseOtherVersions(version)
    nextGeneration = try container.decode(Int.self, forKey: .nextGeneration)
    links = try container.decode([Link].self, forKey: .links)
    try validate()
  }

  /// The checks a decoded file must pass: at most `maximumLinks`, positive
  /// list ids, generations below `nextGeneration` and each used once,
  /// digests of the right form and each once, one link per list and kind.
  func validate() throws {
    guard links.count <= Self.maximumLinks else {
      throw Invalid(description: "more than \(Self.maximumLinks) links")
    }
    var digests: Set<String> = []
    var generations: Set<Int> = []
    var places: Set<String> = []
    for link in links {
      guard link.list > 0, link.generation > 0, link.generation < nextGeneration,
        VisitorDirectory.isKey(link.digest, inShard: String(link.digest.prefix(2))),
        digests.insert(link.digest).inserted, generations.insert(link.generation).inserted,
        places.insert("\(link.list) \(link.kind.rawValue)").inserted
      else { throw Invalid(description: "a link entry is malformed or repeated") }
    }
  }
}
