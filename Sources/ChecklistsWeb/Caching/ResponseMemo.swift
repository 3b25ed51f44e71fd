import Documents
import FastCGI
import FileSystem
import Foundation
import HTTPTypes
import ServiceMetrics
import Support

/// Whole answers to a returning visitor's repeated `GET`s, reused while
/// nothing they were computed from has changed.
///
/// A Checklist or All Lists page is a pure function of the request's path,
/// its `Cookie` header, whether it came over HTTPS, and the visitor's two
/// files. So the key is those request parts, byte for byte, and each use
/// first checks the identity of the visitor's directory (see `Version`)
/// against the one taken *before* the answer was computed: a file that
/// changed while it was being computed leaves an entry that never matches,
/// never a stale one. Only answers that wrote no file are kept (`200`). The
/// cookies such an answer sets (the landing rule's `ChecklistIndex`, moved
/// by opening a list) follow from the same request parts, so they are kept
/// with it and sent again; the visitor's own cookie never is (a new
/// visitor's id is random, and a renewal falls due once a day: see
/// `Entry.until`). A kept answer runs no screen, so preference observers
/// are not told again of the cookie it sets.
///
/// Keeping answers that set `ChecklistIndex` matters: moving between lists
/// and All Lists sets it on nearly every page view, and each such page
/// rendered again cost ~55 µs instead of ~3 µs (`bench-web`).
///
/// What it saves is everything between the request and the page: routing,
/// parsing cookies, hashing the visitor id into a directory name, the
/// preferences look-ups, the model cache, building the template context and
/// rendering (three quarters of a 20-item page's ~20 µs). Measured through nginx
/// with `wrk` (2 cores, 20-item list), the backend's CPU per page fell from
/// ~67 µs to ~48 µs, next to ~33 µs for the bare `/health`.
///
/// Bounded twice: at most `capacity` answers, and a body only up to
/// `maximumBodyBytes` (a 5,000-item page is 2 MB), so the memo holds at
/// most `capacity × maximumBodyBytes` bytes of bodies.
final class ResponseMemo: Sendable {
  /// The largest body kept; a larger page is kept as its headers and tag.
  static let maximumBodyBytes = 16 * 1024

  struct Key: Hashable, Sendable {
    var path: String
    var cookies: String
    var isHTTPS: Bool

    /// The key of a `GET` or `HEAD` without a query string; nil otherwise.
    init?(_ request: Request) {
      guard request.method == .get || request.method == .head, request.query.isEmpty,
        let cookies = request.headerFields.value(of: .cookie)
      else { return nil }
      path = request.path
      self.cookies = cookies
      self.isHTTPS = request.isHTTPS
    }

    /// The key of a shared list's page (a separate memo's: see
    /// `SharedMemo`) asked for by a `GET` or `HEAD` without a query
    /// string; nil otherwise. The page is the same whoever asks, so the
    /// `Cookie` header plays no part; it stands for its link by the SHA-256
    /// of the token (`linkDigest`), so that looking it up never compares a
    /// presented token byte by byte.
    init?(sharedPage linkDigest: String, _ request: Request) {
      guard request.method == .get || request.method == .head, request.query.isEmpty else {
        return nil
      }
      path = linkDigest
      cookies = ""
      isHTTPS = request.isHTTPS
    }
  }

  /// What an answer was computed from: the visitor's directory. Both of the
  /// visitor's files are only ever replaced by a rename or an exchange of
  /// names in it (`AtomicFile`, `CorruptFile`), never rewritten in place, so
  /// every write changes the directory's modification time; one `stat`
  /// tells that neither file changed.
  struct Version: Sendable, Equatable {
    var directory: String
    var identity: DocumentVersion

    /// How long ago the directory must have changed for its time to be told
    /// apart from a later change's: a file system's clock may move in steps
    /// (of 4 ms at 250 Hz), and a change within the same step would leave the
    /// same time.
    static let settleNanoseconds: Int64 = 20_000_000

    /// The directory's identity; nil when it is missing or changed too
    /// recently to be trusted (the answer is then computed, not kept).
    /// `now` is read before the directory is, so a change in between only
    /// looks younger than it is.
    fileprivate static func of(_ directory: String, in documents: any DocumentStore, now: Date)
      -> Version?
    {
      guard let identity = documents.identity(ofDirectory: directory) else { return nil }
      let changed =
        Double(identity.modifiedSeconds) + Double(identity.modifiedNanoseconds) / 1e9
      let age = now.timeIntervalSince1970 - changed
      guard age >= Double(settleNanoseconds) / 1e9 else { return nil }
      return Version(directory: directory, identity: identity)
    }

    func isCurrent(in documents: any DocumentStore) -> Bool {
      documents.identity(ofDirectory: directory) == identity
    }
  }

  /// A kept answer. A page over `maximumBodyBytes` is kept
  /// without its body: its headers (with the length of the body) answer a
  /// `HEAD` and its tag a revalidation, which would otherwise render a page
  /// of up to tens of megabytes (the largest 2 MiB of checklists make a
  /// 33 MB page: ~100 ms each time); a `GET` of it is computed.
  ///
  /// A class, never changed once kept: a hit hands out a reference. As a
  /// struct, each hit copied it three times field by field (~120
  /// instructions of a kept page's ~6,000, callgrind), and once it held
  /// the route as well, by `memcpy` (~230).
  final class Entry: Sendable {
    let version: Version
    /// The second (since 1970) from which the answer is no longer right for
    /// its key: the visitor cookie in the key's `Cookie` header then falls
    /// due for renewal, which a kept answer would never send.
    let until: Int64
    /// The whole `200` answer, headers included; for a large page, its
    /// headers with an explicit `Content-Length` and no body.
    let response: Response
    let etag: ETag
    /// False for a large page kept without its body.
    let hasBody: Bool
    /// The place in the route table of the route that computed it, which
    /// a hit is counted under (`serve --metrics`).
    let route: Int

    init(
      version: Version, until: Int64, response: Response, etag: ETag, hasBody: Bool, route: Int
    ) {
      self.version = version
      self.until = until
      self.response = response
      self.etag = etag
      self.hasBody = hasBody
      self.route = route
    }

    /// True when this entry is the whole answer to `request`: a `304`, a
    /// `HEAD`, or a `GET` of a page kept with its body.
    func answers(_ request: Request) -> Bool {
      hasBody || request.method == .head || ConditionalGET.isNotModified(request, etag: etag)
    }
  }

  private let entries: LockedValue<LRUCache<Key, Entry>>
  /// Where the directories that answers were computed from live.
  let documents: any DocumentStore

  /// The version of `directory` that an answer computed now comes from
  /// (see `Version.of`): taken before anything in it is read.
  func version(of directory: String, now: Date) -> Version? {
    Version.of(directory, in: documents, now: now)
  }

  /// Which memo, as its look-ups are counted (`ServiceCounters`).
  enum Kind: Sendable {
    /// A visitor's pages (`MemoLookup`).
    case pages
    /// Shared list pages (`SharedMemo`).
    case shared
  }
  private let hit: ServiceCounters.Event
  private let miss: ServiceCounters.Event
  /// `ServiceCounters.shared`, held so that a look-up pays no lazy global's check.
  private let counters = ServiceCounters.shared

  init(capacity: Int, documents: any DocumentStore, kind: Kind = .pages) {
    self.documents = documents
    (hit, miss) =
      kind == .pages ? (.pagesMemoHit, .pagesMemoMiss) : (.sharedMemoHit, .sharedMemoMiss)
    entries = LockedValue(LRUCache(capacity: max(capacity, 1)))
  }

  /// The kept answer for `key` if every file it came from is unchanged and
  /// its visitor cookie is not yet due (`now` in seconds since 1970).
  func entry(for key: Key, now: Int64) -> Entry? {
    guard let entry = entries.withLock({ $0.value(forKey: key) }), now < entry.until,
      entry.version.isCurrent(in: documents)
    else {
      counters.count(miss)
      return nil
    }
    counters.count(hit)
    return entry
  }

  /// Keeps `response` if it is a page that changed nothing, until `until`;
  /// `route` is the place in the route table of the route that computed it.
  func keep(_ response: Response, version: Version, until: Int64, for key: Key, route: Int) {
    guard response.status == .ok, let tag = response.headerFields.value(of: .eTag) else { return }
    var kept = response
    let hasBody = response.body.count <= Self.maximumBodyBytes
    if !hasBody {
      kept.body = []
      kept.headerFields.append(HTTPField(name: .contentLength, value: String(response.body.count)))
    }
    let entry = Entry(
      version: version, until: until, response: kept, etag: ETag(keptValue: tag), hasBody: hasBody,
      route: route)
    entries.withLock { $0.setValue(entry, forKey: key) }
  }
}
