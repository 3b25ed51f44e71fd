/// One effective change of a visitor's defaults, as observers receive it.
public struct PreferencesChange: Sendable, Equatable {
  /// The visitor's directory (the persistent domain's name); nil for a
  /// visitor without one, whose change was to cookies only.
  public var directory: String?
  /// The keys whose value changed, sorted.
  public var keys: [String]

  public init(directory: String?, keys: [String]) {
    self.directory = directory
    self.keys = keys
  }
}

/// Identifies an observer for `Defaults.removeObserver(_:)`.
public struct ObserverToken: Sendable, Hashable {
  let id: UInt64
}
