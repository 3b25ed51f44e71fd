import ChecklistsModel
import Documents
import FileSystem
import Foundation
import ServiceMetrics

/// Where the application finds its files and how it stores visitors' data.
package struct ApplicationConfiguration: Sendable {
  /// Visitors whose decoded preferences, devices and links stay in memory
  /// (`--cache-capacity`). They are read for a page the memo does not
  /// answer; a visitor the memo answers needs none of them. Each visitor
  /// kept costs ~1.3 KB across the three: `bench-web --cold-only` (20,000
  /// visitors in turn) ended at 159 MB resident with 10,000 of them, 147
  /// MB with 1,000. 4,000 keeps the visitors active within minutes on any
  /// site this serves, within the RSS bar of `scripts/bench` (the page
  /// cache + 64 MB).
  package static let defaultCacheCapacity = 4_000
  /// The bytes the decoded checklists may take (`--cache-size`, in MiB),
  /// each model estimated from its file's length
  /// (`ChecklistStore.modelFootprint`, about the file's length). 16 MiB
  /// keeps ~3,200 visitors with a 20-item list (a ~5 KB file): the 2,000
  /// rotating visitors of `scripts/bench` whole. Backend RSS after one run
  /// of its 20,000 rotating visitors when they were beyond the page cache
  /// (each computed in turn, so no cache short of all of them is hit): 127
  /// MB at 16 MiB, 134 MB at 32. With the page cache keeping them all
  /// (`defaultMemoBudget`), after `scripts/bench`'s three rounds: 140 MB.
  package static let defaultModelCacheBudget = 16 * 1024 * 1024
  /// Decoded checklists kept at most, whatever they take: none by default
  /// (the budget bounds them); `--cache-capacity` of older set-ups.
  package static let defaultModelCacheCapacity = Int.max
  /// The bytes the kept pages may take (`--page-cache-size`, in MB): the
  /// memo's budget (`ResponseMemo`), of which the shared links' pages have
  /// `sharedMemoShare`. A returning visitor's 20-item list page kept as
  /// a browser takes it, gzipped alone, is counted at ~3.2 KB (2.9 KB
  /// resident, `bench-web --memo-memory`), so the 70 MiB of 80 for
  /// visitors keep ~23,000 visitors' last pages: the 20,000 rotating
  /// visitors of `scripts/bench` with room to spare. At 64 MiB (56 for
  /// visitors, ~18,400 pages) those 20,000, each asking in turn, found
  /// none of their pages (the least recently used is always the next one
  /// asked for): 23% of the bare page's throughput against 75%, backend RSS
  /// 150 MB against 142.
  package static let defaultMemoBudget = 80 * 1024 * 1024
  /// Whole answers the memo keeps at most, whatever they take: none by
  /// default (the budget bounds them); `--page-cache-capacity` of older
  /// set-ups.
  package static let defaultMemoCapacity = Int.max
  /// The part of the memo's budget for shared links' pages (their own memo).
  package static let sharedMemoShare = 8
  /// The bytes the rendered rows of owners' list pages may take
  /// (`--row-cache-size`, in MiB; `RowFragments`): a row is counted at its
  /// bytes, its text and note and 256 more (~600 for a 20-item list's),
  /// so 16 MiB keeps the rows of ~1,400 visitors' 20-item lists.
  package static let defaultRowCacheBudget = 16 * 1024 * 1024

  /// The data directory: `secret` and `users/…` live here.
  package var dataDirectory: String
  /// Where the documents under `dataDirectory` are kept: files there (the
  /// default), or a database several hosts share, which names them by the
  /// same paths.
  package var documents: any DocumentStore
  /// The Mustache templates (`Templates/`).
  package var templatesDirectory: String
  /// The static front end nginx serves (`Public/`): the assets are
  /// fingerprinted from it and the icons' markup is read from it.
  package var publicDirectory: String
  /// When false, writes skip `fsync` (tests and benchmarks that measure
  /// everything but the disk). Always true in production.
  package var durable: Bool
  /// How many visitors' decoded preferences, devices and links stay in memory.
  package var cacheCapacity: Int
  /// How many bytes the visitors' decoded checklists may take in memory.
  package var modelCacheBudget: Int
  /// How many visitors' decoded checklists are kept at most, besides the budget.
  package var modelCacheCapacity: Int
  /// How many bytes the whole answers to revisited pages (Checklist, All
  /// Lists, shared lists) may take in memory; a body is kept only up to 16 KiB.
  package var memoBudget: Int
  /// How many such answers are kept at most, besides the budget.
  package var memoCapacity: Int
  /// How many bytes the rendered rows of owners' list pages may take; 0
  /// keeps none (every row is rendered for every page).
  package var rowCacheBudget: Int = defaultRowCacheBudget
  /// The one origin browsers reach the site at, when the operator gives it:
  /// then the only `Origin` a post may carry. Nil: posts are compared with
  /// the request's `Host` and listening port. An `https` origin also
  /// makes every request HTTPS for the cookies (`Secure`, `__Host-`), as
  /// where TLS ends at a proxy before nginx.
  package var publicOrigin: PublicOrigin?
  /// Whether the documents can be reached now, what `/health` tells a
  /// load balancer: always for files; a database's readiness otherwise.
  package var isReady: @Sendable () -> Bool = { true }
  /// Where each answer is counted and timed by its route and status
  /// (`serve --metrics`), made with `RequestMetrics(routes: .checklists)`;
  /// nil: nothing is timed.
  package var requestMetrics: RequestMetrics?
  /// The time every request is answered at (`Arrival.now`) and scheduled
  /// resets are judged by: the system's clock; tests move it
  /// (`CHECKLISTS_CLOCK_OFFSET_SECONDS`, see `ClockOffset`).
  package var clock: @Sendable () -> Date = { Date() }

  package init(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments(),
    templatesDirectory: String = "Templates",
    publicDirectory: String = "Public", durable: Bool = true,
    cacheCapacity: Int = defaultCacheCapacity, modelCacheBudget: Int = defaultModelCacheBudget,
    modelCacheCapacity: Int = defaultModelCacheCapacity, memoBudget: Int = defaultMemoBudget,
    memoCapacity: Int = defaultMemoCapacity, publicOrigin: PublicOrigin? = nil
  ) {
    self.dataDirectory = dataDirectory
    self.documents = documents
    self.templatesDirectory = templatesDirectory
    self.publicDirectory = publicDirectory
    self.durable = durable
    self.cacheCapacity = cacheCapacity
    self.modelCacheBudget = modelCacheBudget
    self.modelCacheCapacity = modelCacheCapacity
    self.memoBudget = memoBudget
    self.memoCapacity = memoCapacity
    self.publicOrigin = publicOrigin
  }
}
