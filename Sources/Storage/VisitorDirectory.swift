import Crypto
import Foundation

/// Where one visitor's files live:
/// `DATA/users/<first 2 hex of key>/<key>/`, where the key is the SHA-256
/// (hex) of the visitor id, so that a listing or a backup of the data
/// directory never reveals a cookie. The shard keeps directories small.
public struct VisitorDirectory: Sendable, Equatable {
  /// SHA-256 of the visitor id, 64 lowercase hex digits.
  public let key: String
  /// The visitor's directory.
  public let path: String

  /// - Parameters:
  ///   - dataDirectory: the backend's data directory.
  ///   - visitorID: the visitor's id, already validated by the web layer.
  public init(dataDirectory: String, visitorID: String) {
    var id = visitorID
    let digest = id.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    self.init(dataDirectory: dataDirectory, key: Hex.encode(contiguous: digest))
  }

  /// A directory from its key (what `DataCheck` finds on disk).
  init(dataDirectory: String, key: String) {
    self.key = key
    self.path = "\(dataDirectory)/users/\(key.prefix(2))/\(key)"
    // Stored, not computed: a cached load must not build a string.
    self.checklistsPath = path + "/Checklists.plist"
    self.preferencesPath = path + "/Preferences.plist"
    self.lockPath = path + "/" + Self.checklistsLockName
    self.preferencesLockPath = path + "/" + Self.preferencesLockName
  }

  /// The name of the lock file of `Checklists.plist`.
  public static let checklistsLockName = ".Checklists.lock"

  /// The name of the lock file of `Preferences.plist`. Named here, not in
  /// the Preferences module, because `DataCheck` (which cannot see that
  /// module) must take the same lock before it sets the file aside.
  public static let preferencesLockName = ".Preferences.lock"

  /// The visitor's lists and items.
  public let checklistsPath: String
  /// The visitor's persistent preferences domain.
  public let preferencesPath: String
  /// The file whose `flock` serialises changes of this visitor.
  public let lockPath: String
  /// The file whose `flock` serialises changes of `Preferences.plist`.
  public let preferencesLockPath: String
}

extension VisitorDirectory {
  /// The names in a directory of the data directory, sorted; none when it
  /// cannot be read (nobody has stored anything yet).
  static func sortedEntries(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// True for a shard's name: two lower-case hex digits.
  static func isShard(_ name: String) -> Bool { isHex(name, count: 2) }

  /// True for a visitor's key (64 lower-case hex digits) in its own shard.
  static func isKey(_ name: String, inShard shard: String) -> Bool {
    isHex(name, count: 64) && name.hasPrefix(shard)
  }

  private static func isHex(_ name: String, count: Int) -> Bool {
    name.utf8.count == count
      && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}
