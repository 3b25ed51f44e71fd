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
/// Sized by memory: the answers kept cost at most `budget` bytes together
/// (`Entry.cost`: both forms' bodies and fields, the key, and what an
/// entry costs besides, measured), the least recently used forgotten
/// first; an operator may also bound their count. A body is kept only up
/// to `maximumBodyBytes` (a 5,000-item page is 2 MB).
///
/// A page is kept in the form the browser that asked for it takes: a key
/// holds one visitor's cookies, so the same browser asks again, with the
/// same `Accept-Encoding`. Every browser takes gzip, so a page is mostly
/// kept gzipped alone, compressed once at the smallest level when it is
/// kept (and sent so), a fifth of its plain bytes: a 20-item page is
/// counted at ~3.2 KB, against ~10.8 KB kept plain and gzipped, so the
/// default budget keeps ~23,000 visitors' pages instead of ~6,800. A
/// client that takes no gzip is given a plain page, kept as it is and
/// gzipped as well the first time a request that accepts gzip asks for
/// it (`answer(_:for:to:)`); a plain request for a page kept gzipped alone
/// is computed (and its plain form kept). Both forms say `Vary:
/// Accept-Encoding`; the gzipped one's tag is the plain one's made weak
/// (see `gzipped`).
final class ResponseMemo: Sendable {
  /// The largest body kept; a larger page is kept as its headers and tag.
  static let maximumBodyBytes = 16 * 1024

  struct Key: Hashable, Sendable {
    var path: String
    var cookies: String
    var isHTTPS: Bool

    /// The key of a `GET` or `HEAD` without a query string; nil otherwise.
    init?(_ request: Request) {
      var acceptLanguage: Int?
      self.init(request, acceptLanguage: &acceptLanguage)
    }

    /// The key of a `GET` or `HEAD` without a query string (nil
    /// otherwise), and where its `Accept-Language` field is (nil for none,
    /// -1 for several), found in the same pass over the fields as `Cookie`:
    /// not part of the key, a page made in the browser's language is given
    /// only to the same value (`Entry.answers`), compared in place.
    init?(_ request: Request, acceptLanguage: inout Int?) {
      guard request.method == .get || request.method == .head, request.query.isEmpty else {
        return nil
      }
      var cookies: String?
      let fields = request.headerFields
      for index in fields.indices {
        let name = fields[index].name
        if name.isSameField(as: .cookie) {
          let value = fields[index].value
          cookies = cookies.map { $0 + "; " + value } ?? value
        } else if name.isSameField(as: .acceptLanguage) {
          acceptLanguage = acceptLanguage == nil ? index : -1
        }
      }
      guard let cookies else { return nil }
      path = request.path
      self.cookies = cookies
      self.isHTTPS = request.isHTTPS
    }

    /// The key of a shared list's page (a separate memo's: see
    /// `SharedMemo`) asked for by a `GET` or `HEAD` without a query
    /// string; nil otherwise. The page is the same whoever asks, so the
    /// `Cookie` header plays no part; it stands for its link by the
    /// request's path, `/s/{token}`, the token's bytes themselves: the
    /// dictionary compares them whole on every hit, so a page is given only
    /// to the exact token it was computed for, and a hash collision finds
    /// nothing. (It was keyed by the token's SHA-256 in hex: 2,900 of a
    /// kept page's 14,000 instructions, for a look-up, not a comparison
    /// whose time could tell a guess how close it came.)
    init?(sharedPage request: Request) {
      var acceptLanguage: Int?
      self.init(sharedPage: request, acceptLanguage: &acceptLanguage)
    }

    /// The same, and where the request's `Accept-Language` field is (nil
    /// for none, -1 for several): a shared page is in the browser's
    /// language, given again only to the same value (`Entry.answers`).
    init?(sharedPage request: Request, acceptLanguage: inout Int?) {
      guard request.query.isEmpty else { return nil }
      self.init(sharedPage: request, path: request.path, acceptLanguage: &acceptLanguage)
    }

    /// The same, for a request whose path (`path`, a request target with
    /// no query string: `SharedMemoLookup` knows it has none, since a `?`
    /// is no hex digit) is already in hand.
    init?(sharedPage request: Request, path: String, acceptLanguage: inout Int?) {
      guard request.method == .get || request.method == .head else { return nil }
      let fields = request.headerFields
      for index in fields.indices where fields[index].name.isSameField(as: .acceptLanguage) {
        acceptLanguage = acceptLanguage == nil ? index : -1
      }
      self.path = path
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

    /// The directory's identity; nil when it is missing or changed too
    /// recently to be trusted (`DocumentVersion.isSettled`: the answer is
    /// then computed, not kept).
    fileprivate static func of(_ directory: String, in documents: any DocumentStore, now: Date)
      -> Version?
    {
      guard let identity = documents.identity(ofDirectory: directory), identity.isSettled(at: now)
      else { return nil }
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
    /// headers with an explicit `Content-Length` and no body. Nil for a
    /// page kept gzipped alone.
    let plain: Response?
    let etag: ETag
    /// False for a large page kept without its body.
    let hasBody: Bool
    /// The place in the route table of the route that computed it, which
    /// a hit is counted under (`serve --metrics`).
    let route: Int
    /// The `Accept-Language` the page was computed for when its language
    /// came from it (`LanguageChoice.fromBrowser`; empty for none sent), so
    /// it is given only to that header; nil when the visitor chose their
    /// language, which is in the files the version covers.
    let acceptLanguage: [UInt8]?

    /// The gzipped form: kept alone when the browser that asked took
    /// gzip, otherwise made once from `plain` when first asked for (an
    /// entry with it then replaces this one); nil until then, and for a
    /// body too small to gain from it.
    let gzipped: Response?
    /// What keeping the entry costs, in bytes (see `ResponseMemo.cost`).
    let cost: Int

    /// The answer kept: the plain one if there is one, else the gzipped.
    var response: Response { plain ?? gzipped! }

    init(
      version: Version, until: Int64, plain: Response?, etag: ETag, hasBody: Bool, route: Int,
      acceptLanguage: [UInt8]?, gzipped: Response? = nil, cost: Int
    ) {
      precondition(plain != nil || gzipped != nil, "an entry keeps one form at least")
      self.version = version
      self.until = until
      self.plain = plain
      self.etag = etag
      self.hasBody = hasBody
      self.route = route
      self.acceptLanguage = acceptLanguage
      self.gzipped = gzipped
      self.cost = cost
    }

    /// This entry with its gzipped form as well, costing `cost`.
    func with(gzipped: Response, cost: Int) -> Entry {
      Entry(
        version: version, until: until, plain: plain, etag: etag, hasBody: hasBody,
        route: route, acceptLanguage: acceptLanguage, gzipped: gzipped, cost: cost)
    }

    /// True when this entry is the whole answer to `request`: a `304`, a
    /// `HEAD`, or a `GET` of a page kept with its body, in the language
    /// the request's `Accept-Language` asks for when the page's came from it,
    /// and in a form the request takes (a page kept gzipped alone answers
    /// only a request that takes gzip). `field` is where the request's
    /// `Accept-Language` is (see `Key`).
    func answers(_ request: Request, acceptLanguageField field: Int? = nil) -> Bool {
      if plain == nil, !AcceptEncoding.allowsGzip(request.headerFields.value(of: .acceptEncoding)) {
        return false
      }
      if let acceptLanguage {
        switch field {
        case nil: if !acceptLanguage.isEmpty { return false }
        case let index? where index >= 0:
          let same = request.headerFields[index].withUnsafeBytesOfValue { sent in
            acceptLanguage.withUnsafeBytes { kept in
              sent.count == kept.count
                && (sent.isEmpty || memcmp(sent.baseAddress!, kept.baseAddress!, sent.count) == 0)
            }
          }
          if !same { return false }
        default: return false
        }
      }
      return hasBody || request.method == .head
        || ConditionalGET.isNotModified(request, etag: etag)
    }
  }

  /// The smallest body kept gzipped as well: below it the gzip header and
  /// the fields it adds outweigh what compression saves.
  static let smallestGzippedBody = 512

  /// What an entry costs besides its bodies, fields and key, measured:
  /// the memo's arrays and dictionary slot, the `Response` and its
  /// `HTTPFields` storage, the strings' and arrays' headers, and malloc's
  /// rounding, less the field values shared by every page (the security
  /// headers), which are counted with each. `bench-web --memo-memory`
  /// (release): a 20-item page kept gzipped alone 2,898 bytes resident
  /// (10,000 pages), of which its body, fields and key are 1,938; kept in
  /// both forms 10,495 (3,000 pages), of which 9,293.
  static let entryOverhead = 960
  /// What a second form adds besides its body and fields (see `entryOverhead`).
  static let secondFormOverhead = 240

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

  /// At most `budget` bytes of answers (`Entry.cost`), and at most
  /// `capacity` of them.
  init(budget: Int, capacity: Int = .max, documents: any DocumentStore, kind: Kind = .pages) {
    self.documents = documents
    (hit, miss) =
      kind == .pages ? (.pagesMemoHit, .pagesMemoMiss) : (.sharedMemoHit, .sharedMemoMiss)
    entries = LockedValue(LRUCache(capacity: max(capacity, 1), budget: budget))
  }

  /// What the kept answers cost together (bytes) and how many there are,
  /// for the operator (`serve` logs it).
  var usage: (bytes: Int, answers: Int) {
    entries.withLock { ($0.totalCost, $0.count) }
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
  /// `route` is the place in the route table of the route that computed
  /// it. Returns the answer to send: when `request` takes gzip, the page
  /// kept gzipped (alone), otherwise `response`.
  @discardableResult
  func keep(
    _ response: Response, version: Version, until: Int64, for key: Key, route: Int,
    acceptLanguage: String? = nil, request: Request? = nil
  ) -> Response {
    guard response.status == .ok, let tag = response.headerFields.value(of: .eTag) else {
      return response
    }
    var kept = response
    if !kept.headerFields.hasField(.vary) {
      kept.headerFields.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    }
    let hasBody = response.body.count <= Self.maximumBodyBytes
    let language = acceptLanguage.map { Array($0.utf8) }
    if let request, hasBody, Self.sendsGzipped(response.body, to: request),
      !response.headerFields.contains(.contentEncoding),
      GzipStage.isCompressible(response.headerFields.value(of: .contentType))
    {
      let gzipped = Self.gzipped(kept)
      let entry = Entry(
        version: version, until: until, plain: nil, etag: ETag(keptValue: tag), hasBody: true,
        route: route, acceptLanguage: language, gzipped: gzipped,
        cost: Self.cost(of: nil, gzipped: gzipped, key: key))
      entries.withLock { $0.setValue(entry, forKey: key, cost: entry.cost) }
      return gzipped
    }
    if hasBody, response.body.capacity > response.body.count + 256 {
      // The renderer's buffer is a guess, doubled as it fills: kept for
      // long, the body gets storage of its own size.
      kept.body = Array(unsafeUninitializedCapacity: response.body.count) { copy, count in
        _ = copy.initialize(from: response.body)
        count = response.body.count
      }
    }
    if !hasBody {
      kept.body = []
      kept.headerFields.append(HTTPField(name: .contentLength, value: String(response.body.count)))
    }
    let entry = Entry(
      version: version, until: until, plain: kept, etag: ETag(keptValue: tag), hasBody: hasBody,
      route: route, acceptLanguage: language, cost: Self.cost(of: kept, gzipped: nil, key: key))
    entries.withLock { $0.setValue(entry, forKey: key, cost: entry.cost) }
    return response
  }

  /// Whether a kept `body` goes to `request` gzipped: the request takes
  /// gzip, and the body is large enough to gain from it.
  private static func sendsGzipped(_ body: [UInt8], to request: Request) -> Bool {
    body.count >= smallestGzippedBody
      && AcceptEncoding.allowsGzip(request.headerFields.value(of: .acceptEncoding))
  }

  /// The form of a kept answer `request` accepts: gzipped when its
  /// `Accept-Encoding` allows it and the body is worth it (made now if it
  /// is the first such request, and kept), the plain one otherwise.
  func answer(_ entry: Entry, for key: Key, to request: Request) -> Response {
    guard let plain = entry.plain else { return entry.gzipped! }
    guard entry.hasBody, Self.sendsGzipped(plain.body, to: request) else { return plain }
    if let gzipped = entry.gzipped { return gzipped }
    let gzipped = Self.gzipped(plain)
    let updated = entry.with(
      gzipped: gzipped, cost: Self.cost(of: plain, gzipped: gzipped, key: key))
    entries.withLock { cache in
      // Only onto the same answer: another thread may have kept a newer one.
      guard let current = cache.value(forKey: key), current.etag == entry.etag,
        current.version == entry.version, current.gzipped == nil
      else { return }
      cache.setValue(updated, forKey: key, cost: updated.cost)
    }
    return gzipped
  }

  /// `response` with its body gzipped at `level`, `Content-Encoding:
  /// gzip` and its own tag: the plain one's, weak (`W/"x"`).
  ///
  /// Weak because a page's gzipped bytes depend on who compressed it and
  /// how hard: the memo's kept form (`Gzip.smallest`) and `GzipStage`'s
  /// form of a page computed on the fly (`Gzip.fastest`) are the same page
  /// in other bytes, which a strong tag would have to tell apart. So the
  /// tag of a gzipped page is the same whichever made it, never the plain
  /// form's (no strong comparison matches a weak tag), and, compared weakly
  /// as `If-None-Match` is, either form's tag revalidates either form.
  static func gzipped(_ response: Response, level: Int32 = Gzip.smallest) -> Response {
    var gzipped = response
    gzipped.body = Gzip.compress(response.body, level: level)
    gzipped.headerFields.append(HTTPField(name: .contentEncoding, value: "gzip"))
    if let tag = response.headerFields.value(of: .eTag) {
      gzipped.headerFields[.eTag] = weak(tag)
    }
    return gzipped
  }

  /// `tag` made weak: `W/` before it, unless it is weak already.
  static func weak(_ tag: String) -> String {
    tag.hasPrefix("W/") ? tag : "W/" + tag
  }

  /// What an entry holding `response` (and its gzipped form) under `key`
  /// costs in memory, in bytes: its bodies, its fields' names and values,
  /// the key's strings, and `entryOverhead`.
  static func cost(of response: Response?, gzipped: Response?, key: Key) -> Int {
    func size(_ response: Response) -> Int {
      response.body.count
        + response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }
    let forms = (response == nil ? 0 : 1) + (gzipped == nil ? 0 : 1)
    return entryOverhead + (forms == 2 ? secondFormOverhead : 0) + (response.map(size) ?? 0)
      + (gzipped.map(size) ?? 0) + key.path.utf8.count + key.cookies.utf8.count
  }
}

extension ResponseMemo.Version {
  /// The version a request's view of the directory was taken at.
  init(_ view: DirectoryView) { self.init(directory: view.directory, identity: view.version) }

  /// The same settled identity as a request's view of the directory: its
  /// documents' versions seen under it need no asking again.
  var view: DirectoryView { DirectoryView(directory: directory, version: identity) }
}
