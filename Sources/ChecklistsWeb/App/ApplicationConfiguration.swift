import ChecklistsModel
import Documents
import FileSystem
import Foundation
import ServiceMetrics

/// Where the application finds its files and how it stores visitors' data.
package struct ApplicationConfiguration: Sendable {
  /// Visitors whose decoded checklists and preferences stay in memory.
  package static let defaultCacheCapacity = VersionedFile<DataModel>.defaultCapacity
  /// Answers the response memo keeps (`--page-cache-capacity`): at most
  /// 16 KiB each, so at most 16 MiB.
  package static let defaultMemoCapacity = 1_000

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
  /// How many visitors' decoded checklists and preferences stay in memory.
  package var cacheCapacity: Int
  /// How many whole answers to revisited pages (Checklist, All Lists) the
  /// response memo keeps; a body is kept only up to 16 KiB.
  package var memoCapacity: Int
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

  package init(
    dataDirectory: String, documents: any DocumentStore = LocalDocuments(),
    templatesDirectory: String = "Templates",
    publicDirectory: String = "Public", durable: Bool = true,
    cacheCapacity: Int = defaultCacheCapacity, memoCapacity: Int = defaultMemoCapacity,
    publicOrigin: PublicOrigin? = nil
  ) {
    self.dataDirectory = dataDirectory
    self.documents = documents
    self.templatesDirectory = templatesDirectory
    self.publicDirectory = publicDirectory
    self.durable = durable
    self.cacheCapacity = cacheCapacity
    self.memoCapacity = memoCapacity
    self.publicOrigin = publicOrigin
  }
}
