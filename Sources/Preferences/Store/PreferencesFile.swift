import Foundation
import Support

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

  /// Parses a persistent domain; nil when the bytes are not a property list
  /// whose root is a dictionary of property-list values.
  static func decode(_ bytes: Data) -> [String: PlistValue]? {
    guard !bytes.isEmpty, !BinaryPropertyList.isUnsafeToParse(bytes),
      let root = try? PropertyListSerialization.propertyList(from: bytes, options: [], format: nil),
      let dictionary = root as? [AnyHashable: Any]
    else { return nil }
    return PlistValue.parsedDictionary(dictionary)
  }

  /// Bytes that `decode` refuses: the file is corrupt.
  struct NotADomain: Error, CustomStringConvertible {
    var description: String { "not a property list whose root is a dictionary" }
  }

  static func encode(
    _ domain: [String: PlistValue], format: PropertyListSerialization.PropertyListFormat
  ) throws(PreferencesError) -> Data {
    if format != .binary { return XMLPropertyListWriter.document(domain) }
    do {
      let root = domain.mapValues(\.foundationValue)
      return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    } catch {
      throw .io("encoding the binary property list: \(error)")
    }
  }
}
