import Foundation
import PropertyList

/// A visitor's `Preferences.plist`: its name and its lock file's name in
/// the visitor's directory (for the operator's commands, which check and
/// prune files under the same locks), and its encoding.
package enum PreferencesFile {
  /// The name of the persistent domain's file in the visitor's directory.
  package static let fileName = "Preferences.plist"
  /// The name of the lock file whose `flock` serialises its writers.
  package static let lockName = ".Preferences.lock"

  /// The persistent domain's file in the visitor directory `directory`.
  package static func path(inDirectory directory: String) -> String {
    directory + "/" + fileName
  }

  /// The lock file of the persistent domain in `directory`.
  package static func lockPath(inDirectory directory: String) -> String {
    directory + "/" + lockName
  }

  /// Parses a persistent domain with the strict readers (Foundation's parser stopped
  /// the process on some damaged files: see `PropertyList`); nil when the bytes are not
  /// a property list whose root is a dictionary of values. Integers past `Int.max` (up to
  /// 2⁶⁴ − 1, which Python writes) read as the nearest `Double`, as `UserDefaults` reads
  /// them, rather than make a valid file unreadable. No more values than bytes are
  /// built: more would mean a binary file naming one container from many places.
  static func decode(_ bytes: Data) -> [String: PropertyListValue]? {
    let bytes = [UInt8](bytes)
    guard let list = try? PropertyList(reading: bytes, largeIntegers: .asReals),
      case .dictionary(let domain) = try? list.value(limit: bytes.count)
    else { return nil }
    return domain
  }

  /// Bytes that `decode` refuses: the file is corrupt.
  struct NotADomain: Error, CustomStringConvertible {
    var description: String { "not a property list whose root is a dictionary" }
  }

  static func encode(
    _ domain: [String: PropertyListValue], format: PropertyListSerialization.PropertyListFormat
  ) throws(PreferencesError) -> Data {
    if format != .binary { return Data(XMLPropertyListWriter.document(.dictionary(domain))) }
    do {
      let root = domain.mapValues(\.foundationValue)
      return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    } catch {
      throw .io("encoding the binary property list: \(error)")
    }
  }
}
