import Foundation
import Storage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file operations on one visitor's `Preferences.plist`.
enum PreferencesFile {
  static let fileName = "Preferences.plist"
  static let lockName = VisitorDirectory.preferencesLockName

  /// The identity of the file now, nil when it is missing or cannot be
  /// examined (the caller then reads it, and reports what goes wrong).
  static func identity(_ path: String) -> FileIdentity? {
    (try? FileIdentity.of(path)) ?? nil
  }

  /// A file's contents and the identity of exactly the version read.
  struct Snapshot {
    /// Nil when the identity was the one the caller already knew.
    var bytes: Data?
    var identity: FileIdentity
  }

  /// Reads the file (`FileSnapshot`: one descriptor, so the identity belongs
  /// to the bytes even when another process renames a new version in
  /// meanwhile). When the file is still `known` (the cached version), its
  /// bytes are not read: with many threads, a version is often replaced
  /// between a `stat` and the cache look-up, and re-parsing it was 40% of
  /// a busy visitor's commits.
  static func read(_ path: String, unless known: FileIdentity? = nil) throws(FileError) -> Snapshot?
  {
    if let known, try FileIdentity.of(path) == known {
      return Snapshot(bytes: nil, identity: known)
    }
    guard let snapshot = try FileSnapshot.read(path) else { return nil }
    return Snapshot(bytes: snapshot.contents, identity: snapshot.identity)
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

  /// Renames an unreadable file to `Preferences.plist.corrupt-<UTC time>`,
  /// never over an earlier one, and returns the new name. The caller holds
  /// the visitor's lock.
  static func quarantine(_ path: String, durable: Bool) throws(FileError) -> String {
    (try CorruptFile.setAside(path, durable: durable) as NSString).lastPathComponent
  }
}
