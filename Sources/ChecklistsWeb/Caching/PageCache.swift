import FileSystem
import Support

/// Rendered Checklist pages, reused while nothing they show has changed.
///
/// A returning visitor asks for the same page again and again (reloads,
/// back, revalidation with `If-None-Match`); building the context and
/// rendering were three quarters of the backend's ~20 µs for a 20-item
/// page (`bench-web`). A page depends on the visitor (their CSRF token),
/// the list, the `HideCheckedItems` setting and the stored model; the
/// model's version is the identity of its file (inode, size, mtime in
/// nanoseconds; every write makes a new file), checked on every use, so a
/// change by this process or another one is never served stale. Templates,
/// assets and icons are fixed for the life of the process.
///
/// Bounded twice: at most `capacity` pages, and only pages up to
/// `maximumPageBytes` (a 5,000-item page is 2 MB; those are rendered each
/// time), so the cache holds at most `capacity × maximumPageBytes` bytes.
final class PageCache: Sendable {
  struct Key: Hashable, Sendable {
    var visitor: String
    var list: Int
    var hideChecked: Bool
  }

  struct Page: Sendable {
    var version: FileIdentity
    var body: [UInt8]
    var etag: ETag
  }

  static let maximumPageBytes = 16 * 1024

  private let pages: LockedValue<LRUCache<Key, Page>>

  init(capacity: Int) {
    pages = LockedValue(LRUCache(capacity: max(capacity, 1)))
  }

  /// The page rendered for `key` from exactly `version` of the model, if kept.
  func page(for key: Key, version: FileIdentity) -> Page? {
    guard let page = pages.withLock({ $0.value(forKey: key) }), page.version == version else {
      return nil
    }
    return page
  }

  func keep(_ page: Page, for key: Key) {
    guard page.body.count <= Self.maximumPageBytes else { return }
    pages.withLock { $0.setValue(page, forKey: key) }
  }
}
