/// One effective change of a visitor's defaults, as observers receive it.
package struct PreferencesChange: Sendable, Equatable {
  /// The visitor's directory (the persistent domain's name); nil for a
  /// visitor without one, whose change was to cookies only.
  package var directory: String?
  /// The keys whose value changed, sorted.
  package var keys: [String]

  package init(directory: String?, keys: [String]) {
    self.directory = directory
    self.keys = keys
  }
}

/// Identifies an observer for `Defaults.removeObserver(_:)`.
package struct ObserverToken: Sendable, Hashable {
  let id: UInt64
}
