import Foundation

extension Defaults {
  /// Parses the bytes of a `Preferences.plist` as the persistent domain's
  /// loader does, without a file: the entry point of the fuzzer and of tests
  /// that feed hostile bytes.
  ///
  /// - Parameter bytes: the file's contents (XML or binary property list).
  /// - Returns: the domain as Foundation values, or nil when the bytes are
  ///   not a property list whose root is a dictionary (the loader then sets
  ///   the file aside).
  package static func decodePersistentDomain(_ bytes: Data) -> [String: Any]? {
    PreferencesFile.decode(bytes)?.mapValues(\.foundationValue)
  }
}
