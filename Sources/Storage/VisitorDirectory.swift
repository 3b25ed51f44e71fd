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
    self.lockPath = path + "/.Checklists.lock"
    self.preferencesLockPath = path + "/" + Self.preferencesLockName
  }

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
