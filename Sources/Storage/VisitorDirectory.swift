import Documents
import Foundation
import Support

/// Where one visitor's files live:
/// `DATA/users/<first 2 hex of key>/<key>/`, where the key is the SHA-256
/// (hex) of the visitor id, so that a listing or a backup of the data
/// directory never reveals a cookie. The shard keeps directories small.
/// Each owner of a file in it (the store, the preferences) names its own
/// file and lock file there.
package struct VisitorDirectory: Sendable, Equatable {
  /// SHA-256 of the visitor id, 64 lowercase hex digits.
  package let key: String
  /// The visitor's directory.
  package let path: String

  /// - Parameters:
  ///   - dataDirectory: the backend's data directory.
  ///   - visitorID: the visitor's id, already validated by the web layer.
  package init(dataDirectory: String, visitorID: String) {
    self.init(dataDirectory: dataDirectory, key: SecretDigest.of(visitorID))
  }

  /// A directory from its key (what `checklists check` finds on disk).
  package init(dataDirectory: String, key: String) {
    self.key = key
    self.path = "\(dataDirectory)/users/\(key.prefix(2))/\(key)"
    // Stored, not computed: a cached load must not build a string.
    self.checklistsPath = path + "/Checklists.plist"
    self.lockPath = path + "/" + Self.checklistsLockName
  }

  /// The name of the lock file of `Checklists.plist`.
  package static let checklistsLockName = ".Checklists.lock"

  /// The visitor's lists and items.
  package let checklistsPath: String
  /// The file whose `flock` serialises changes of this visitor's checklists.
  package let lockPath: String

  /// Marks the visitor as seen now on the checklists lock file, which the
  /// first change made and nothing writes (`checklists check` and `prune`
  /// read it). Nothing happens when the visitor has no directory: one who
  /// never changed anything owns nothing on disk.
  ///
  /// Metadata only: no file is created or written, so a crawler's requests
  /// still cost no disk, and the directory itself is untouched, so the
  /// pages kept for the visitor stay valid.
  package func markActive(in documents: any DocumentStore) {
    documents.markActive(lockPath)
  }
}

extension VisitorDirectory {
  /// True for a shard's name: two lower-case hex digits.
  package static func isShard(_ name: String) -> Bool { isHex(name, count: 2) }

  /// True for a visitor's key (64 lower-case hex digits) in its own shard.
  package static func isKey(_ name: String, inShard shard: String) -> Bool {
    isHex(name, count: 64) && name.hasPrefix(shard)
  }

  private static func isHex(_ name: String, count: Int) -> Bool {
    name.utf8.count == count
      && name.utf8.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
  }
}
