import Documents
import Foundation
import Support

/// Which owner each browser acts for, kept between its requests: a
/// returning browser is told apart by one `stat` of its owner's devices
/// file instead of its token's SHA-256, a read of the browser index (a
/// failed `open` for a founding browser) and a `stat` of `Devices.plist`.
///
/// An answer is kept with what the owner's `Devices.plist` was *before*
/// it was worked out (its identity, or that there was none), and given
/// again only while the file is still so. The answer depends on nothing
/// else: every change of an owner's browsers (a sign-out, a code
/// redeemed, the first code or link that lists a founding browser) is an
/// atomic write of that file, so a browser signed out is a new visitor at
/// its very next request, whichever process answers it; and a browser's
/// owner never changes (a linked browser's index entry is written once,
/// before the browser is listed, for a token never used before; a
/// founding browser's owner is named by its token).
///
/// Only that file, not the owner's directory: every change of the lists
/// (a toggle) moves the directory's identity, and a directory changed
/// less than `DocumentVersion.settleNanoseconds` ago is not trusted, so
/// keyed by it every `POST` and the page after it looked the browser up
/// again (38,000 instructions of a toggle's 302,000; callgrind).
///
/// A file changed less than that ago is not trusted either, as
/// `ResponseMemo`'s pages are not (`DocumentVersion.isSettled`).
///
/// What is not kept: a browser signed out (it is given a new token at
/// once), an owner whose devices file cannot be read, and a failed
/// look-up.
final class KnownBrowsers: Sendable {
  /// An owner's `Devices.plist` as a look-up found it.
  enum DevicesFile: Sendable, Equatable {
    /// There was none (a founding browser, the owner's only one).
    case absent
    case version(DocumentVersion)
  }

  struct Known: Sendable {
    var owner: VisitorDirectory
    var browserID: Int?
    /// The owner's devices file, whose state is checked.
    var devicesPath: String
    /// That file before the answer was worked out; nil when it could not
    /// be trusted then (the next request works it out again, now knowing
    /// where to look first).
    var devicesFile: DevicesFile?
  }

  private let known: LockedValue<LRUCache<String, Known>>
  private let documents: any DocumentStore

  init(capacity: Int, documents: any DocumentStore) {
    known = LockedValue(LRUCache(capacity: max(capacity, 1)))
    self.documents = documents
  }

  /// The owner `token` acts for, from what was kept while its owner's
  /// devices file is unchanged; else `resolve` is asked, and its answer kept.
  func resolution(
    of token: String, now: Date, resolve: () throws -> DeviceStore.Resolution
  ) rethrows -> DeviceStore.Resolution {
    var before: DevicesFile?
    if let kept = known.withLock({ $0.value(forKey: token) }) {
      before = trustedState(of: kept.devicesPath, now: now)
      if let before, before == kept.devicesFile {
        return .owner(kept.owner, browserID: kept.browserID)
      }
    }
    let resolution = try resolve()
    if case .owner(let owner, let browserID) = resolution {
      let known = Known(
        owner: owner, browserID: browserID, devicesPath: DeviceStore.path(of: owner),
        devicesFile: before)
      self.known.withLock { $0.setValue(known, forKey: token) }
    } else {
      known.withLock { $0.removeValue(forKey: token) }
    }
    return resolution
  }

  /// The owner `token` was last found to act for, unchecked: where a
  /// request looks first (its owner's directory, which it views before
  /// reading anything there).
  func keptOwner(of token: String) -> VisitorDirectory? {
    known.withLock { $0.value(forKey: token)?.owner }
  }

  /// The devices file at `path` when it changed long enough before `now`
  /// (or is absent); nil when it cannot be told or trusted.
  private func trustedState(of path: String, now: Date) -> DevicesFile? {
    let identity: DocumentVersion?
    do { identity = try documents.identity(of: path) } catch { return nil }
    guard let identity else { return .absent }
    return identity.isSettled(at: now) ? .version(identity) : nil
  }
}
