import Documents
import Foundation
import Support

/// Which owner each browser acts for, kept between its requests: a
/// returning browser is told apart by one `stat` of its owner's directory
/// instead of its token's SHA-256, a read of the browser index (a failed
/// `open` for a founding browser) and a `stat` of `Devices.plist`.
///
/// An answer is kept with the identity the owner's directory had *before*
/// it was worked out, and given again only while the directory still has
/// it. Every change of an owner's browsers (a sign-out, a code redeemed)
/// is an atomic write of `Devices.plist` in that directory, which changes
/// its identity, so a browser signed out is a new visitor at its very next
/// request, whichever process answers it, as `ResponseMemo`'s pages are
/// (and for the same reason, a directory changed less than
/// `settleNanoseconds` ago is not trusted). A browser's owner never
/// changes: a linked browser's index entry is written once, before the
/// browser is, and a founding browser's owner is named by its token.
///
/// What is not kept: a browser signed out (it is given a new token at
/// once), an owner whose devices file cannot be read, a failed look-up,
/// and an owner without a directory (a first-run visitor, who has nothing
/// stored yet).
final class KnownBrowsers: Sendable {
  /// How long ago a directory must have changed to be trusted (see
  /// `ResponseMemo.Version`: a file system's clock may tick coarsely).
  static let settleNanoseconds: Int64 = 20_000_000

  struct Known: Sendable {
    var owner: VisitorDirectory
    var browserID: Int?
    /// The directory's identity before the answer was worked out; nil
    /// when it could not be trusted then (the next request works it out
    /// again, now knowing where to look first).
    var version: DocumentVersion?
  }

  private let known: LockedValue<LRUCache<String, Known>>
  private let documents: any DocumentStore

  init(capacity: Int, documents: any DocumentStore) {
    known = LockedValue(LRUCache(capacity: max(capacity, 1)))
    self.documents = documents
  }

  /// The owner `token` acts for, from what was kept when its owner's
  /// directory is unchanged; else `resolve` is asked, and its answer kept.
  func resolution(
    of token: String, now: Date, resolve: () throws -> DeviceStore.Resolution
  ) rethrows -> DeviceStore.Resolution {
    var before: DocumentVersion?
    if let kept = known.withLock({ $0.value(forKey: token) }) {
      before = trusted(documents.identity(ofDirectory: kept.owner.path), now: now)
      if let before, before == kept.version { return .owner(kept.owner, browserID: kept.browserID) }
    }
    let resolution = try resolve()
    if case .owner(let owner, let browserID) = resolution {
      known.withLock {
        $0.setValue(Known(owner: owner, browserID: browserID, version: before), forKey: token)
      }
    } else {
      known.withLock { $0.removeValue(forKey: token) }
    }
    return resolution
  }

  /// `identity` when its directory changed long enough before `now`.
  private func trusted(_ identity: DocumentVersion?, now: Date) -> DocumentVersion? {
    guard let identity else { return nil }
    let changed = Double(identity.modifiedSeconds) + Double(identity.modifiedNanoseconds) / 1e9
    let age = now.timeIntervalSince1970 - changed
    return age >= Double(Self.settleNanoseconds) / 1e9 ? identity : nil
  }
}
