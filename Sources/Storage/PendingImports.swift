import ChecklistsModel
import Crypto
import FileSystem
import Foundation
import Support

/// Lists read from an uploaded file, waiting for the owner to confirm them:
/// what the import's preview shows and what its Confirm adds.
package struct PendingImport: Sendable, Equatable {
  /// When the file was uploaded; the import expires `PendingImports.lifetime` later.
  package var created: Date
  /// The uploaded file's name as the browser sent it (shown on the preview).
  package var fileName: String
  /// The format it was read as (`ImportFormat`'s raw value, e.g. `json`).
  package var format: String
  /// The lists as the file held them.
  package var lists: [ImportedList]

  package init(created: Date, fileName: String, format: String, lists: [ImportedList]) {
    self.created = created
    self.fileName = fileName
    self.format = format
    self.lists = lists
  }

  /// True once the import waited longer than `PendingImports.lifetime`.
  package func isExpired(at now: Date) -> Bool {
    now.timeIntervalSince(created) >= PendingImports.lifetime || now < created - 300
  }
}

/// The owner's pending import: `users/<shard>/<key>/PendingImport.plist`,
/// an XML property list (see `docs/data-format.md`) written atomically and
/// durably like the owner's other files, replaced by the next upload,
/// removed by Confirm and Cancel, and ignored (then removed by the next
/// upload, Confirm, Cancel or `prune --delete`) an hour after it was made.
///
/// Its SHA-256 is the preview's digest: the Confirm form carries it, so
/// Confirm adds exactly the lists the preview showed, not those of a file
/// uploaded meanwhile in another tab. Every change of the file runs under
/// the owner's import lock (`.PendingImport.lock`), which Confirm holds
/// around its one write of `Checklists.plist` and the removal of this file:
/// two Confirms of one preview add its lists once.
package struct PendingImports: Sendable {
  /// The file's name in the owner's directory.
  package static let fileName = "PendingImport.plist"
  /// The lock file that serialises uploads, Confirm and Cancel.
  package static let lockName = ".PendingImport.lock"
  /// How long an import waits for its Confirm.
  package static let lifetime: TimeInterval = 60 * 60
  /// The version of the file's format.
  static let version = 1

  /// When false, writes skip `fsync` (tests and benchmarks only).
  package let durable: Bool

  package init(durable: Bool = true) {
    self.durable = durable
  }

  /// The pending import's path in the owner's directory.
  package static func path(of owner: VisitorDirectory) -> String {
    "\(owner.path)/\(fileName)"
  }

  /// The import lock's path in the owner's directory.
  package static func lockPath(of owner: VisitorDirectory) -> String {
    "\(owner.path)/\(lockName)"
  }

  /// A pending import as stored, with the digest of its bytes.
  package struct Stored: Sendable, Equatable {
    package var pending: PendingImport
    /// SHA-256 of the file, 64 lower-case hex digits.
    package var digest: String
  }

  /// The file is there but is not a pending import.
  package struct Unreadable: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
  }

  /// Runs `body` under the owner's import lock, their directory made
  /// first (an upload may be a visitor's first write).
  ///
  /// - Throws: `FileLock.Busy`, `FileError`, or what `body` throws.
  package func withLock<T>(_ owner: VisitorDirectory, _ body: () throws -> T) throws -> T {
    try AtomicFile.createDirectory(owner.path, durable: durable)
    return try FileLock.withLock(Self.lockPath(of: owner), body)
  }

  /// Writes `pending` as the owner's pending import, replacing any other;
  /// the caller holds the import lock. Returns the new file's digest.
  package func save(_ pending: PendingImport, for owner: VisitorDirectory) throws -> String {
    let bytes = try Self.encode(pending)
    try AtomicFile.write(bytes, to: Self.path(of: owner), durable: durable)
    return Self.digest(of: bytes)
  }

  /// The owner's pending import, expired or not; nil when there is none.
  ///
  /// - Throws: `Unreadable` for a file that is not one (the caller may
  ///   remove it), `FileError` when it cannot be read.
  package func load(of owner: VisitorDirectory) throws -> Stored? {
    let path = Self.path(of: owner)
    guard let data = try AtomicFile.read(path) else { return nil }
    do {
      return Stored(pending: try Self.decode(data), digest: Self.digest(of: data))
    } catch {
      throw Unreadable(path: path, reason: "\(error)")
    }
  }

  /// Removes the owner's pending import; nothing happens when there is none.
  package func remove(of owner: VisitorDirectory) throws(FileError) {
    let path = Self.path(of: owner)
    guard (try FileStatus.of(path)) != nil else { return }
    try FileNames.remove(path)
    if durable { try AtomicFile.syncDirectory(owner.path) }
  }

  // MARK: The file's format

  /// The SHA-256 of `bytes`, as 64 lower-case hex digits.
  package static func digest(of bytes: some DataProtocol) -> String {
    Hex.encode(contiguous: SHA256.hash(data: bytes))
  }

  /// The file's bytes: an XML property list.
  package static func encode(_ pending: PendingImport) throws -> Data {
    try OwnerFile.encode(File(pending))
  }

  /// A pending import from the file's bytes, refusing another version.
  package static func decode(_ data: Data) throws -> PendingImport {
    let file = try OwnerFile.decode(File.self, from: data)
    guard file.version == version else {
      throw OwnerFile.Invalid(description: "version \(file.version), not \(version)")
    }
    return file.pending
  }

  /// The file's property list.
  private struct File: Codable {
    var version: Int
    var created: Date
    var fileName: String
    var format: String
    var lists: [List]

    struct List: Codable {
      var name: String
      var icon: ChecklistIcon
      var sort: ItemSort
      var items: [Item]
    }

    struct Item: Codable {
      var text: String
      var checked: Bool
      var dueDate: Date?
      var shouldRemind: Bool?
    }

    init(_ pending: PendingImport) {
      version = PendingImports.version
      created = pending.created
      fileName = pending.fileName
      format = pending.format
      lists = pending.lists.map { list in
        List(
          name: list.name, icon: list.icon, sort: list.sort,
          items: list.items.map {
            // Whole seconds, as the model keeps them (a plist's <date> has no fraction).
            Item(
              text: $0.text, checked: $0.checked, dueDate: $0.dueDate.map(DueDate.wholeSeconds),
              shouldRemind: $0.shouldRemind ? true : nil)
          })
      }
    }

    var pending: PendingImport {
      PendingImport(
        created: created, fileName: fileName, format: format,
        lists: lists.map { list in
          ImportedList(
            name: list.name, icon: list.icon, sort: list.sort,
            items: list.items.map {
              ImportedItem(
                text: $0.text, checked: $0.checked, dueDate: $0.dueDate,
                shouldRemind: $0.shouldRemind ?? false)
            })
        })
    }
  }
}
