import PropertyList

/// A persistent domain as one request sees it: the version it read, plus
/// its own changes kept beside it, so that opening a scope and setting a
/// key costs nothing in the size of the domain (copying a 4,000-key
/// dictionary per request was as costly as writing it).
struct DomainView {
  /// The version read; never mutated here, shared with the cache.
  private(set) var base: [String: PropertyListValue]
  /// Keys this request set (`.some(nil)`: removed).
  private var overlay: [String: PropertyListValue?] = [:]
  /// Whether `base` no longer counts (after `setPersistentDomain`).
  private var cleared = false

  init(base: [String: PropertyListValue] = [:]) { self.base = base }

  subscript(key: String) -> PropertyListValue? {
    if let changed = overlay[key] { return changed }
    return cleared ? nil : base[key]
  }

  /// The whole domain (for `dictionaryRepresentation`).
  var materialized: [String: PropertyListValue] {
    var domain = cleared ? [:] : base
    for (key, value) in overlay { domain[key] = value }
    return domain
  }

  /// Applies a change and returns the keys whose value it changed.
  mutating func apply(_ change: PersistentChange) -> [String] {
    switch change {
    case .set(let key, let value):
      guard self[key] != value else { return [] }
      overlay[key] = .some(value)
      return [key]
    case .remove(let key):
      guard self[key] != nil else { return [] }
      overlay[key] = .some(nil)
      return [key]
    case .reset(let keys):
      return keys.filter { key in
        guard self[key] != nil else { return false }
        overlay[key] = .some(nil)
        return true
      }
    case .replace:
      var domain = materialized
      let changed = change.apply(to: &domain)
      base = domain
      overlay = [:]
      cleared = false
      return changed
    }
  }
}
