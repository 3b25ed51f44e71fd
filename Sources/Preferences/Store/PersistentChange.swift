import PropertyList

/// One recorded change to a persistent domain. A request keeps a log of
/// these and the commit replays it onto the file's state as read under the
/// lock, so a concurrent request's changes to other keys survive.
enum PersistentChange {
  case set(String, PropertyListValue)
  case remove(String)
  /// `resetToRegisteredDefaults(forKeys:)`: removes the keys in one change.
  case reset([String])
  /// `setPersistentDomain`: replaces everything.
  case replace([String: PropertyListValue])

  /// Applies the change and returns the keys whose value it changed.
  func apply(to domain: inout [String: PropertyListValue]) -> [String] {
    switch self {
    case .set(let key, let value):
      guard domain[key] != value else { return [] }
      domain[key] = value
      return [key]
    case .remove(let key):
      return domain.removeValue(forKey: key) == nil ? [] : [key]
    case .reset(let keys):
      return keys.filter { domain.removeValue(forKey: $0) != nil }
    case .replace(let replacement):
      var changed = Set(domain.keys).symmetricDifference(replacement.keys)
      for (key, value) in replacement where domain[key] != nil && domain[key] != value {
        changed.insert(key)
      }
      domain = replacement
      return Array(changed)
    }
  }
}
