import ChecklistsModel
import Crypto
import Documents
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
///
/// What was written stays decoded (`VersionedFile`, checked against the
/// file's identity), so the preview and Confirm that follow an upload do
/// not decode it again: `PropertyListDecoder` took about 32 ms for 5,000
/// items, a third of the import's 100 ms (`bench-transfer`, release).
package struct PendingImports: Sendable {
  /// The file's name in the owner's directory.
  package static let fileName = "PendingImport.plist"
  /// The lock file that serialises uploads, Confirm and Cancel.
  package static let lockName = ".PendingImport.lock"
  /// How long an import waits for its Confirm.
  package static let lifetime: TimeInterval = 60 * 60
  /// The version of the file's format.
  static let version = 1
  /// Pending imports kept decoded: few owners have one at a time, and one
  /// may hold a few MB of lists.
  package static let cacheCapacity = 16

  /// When false, writes skip `fsync` (tests and benchmarks only).
  package let durable: Bool
  /// Where the documents are kept.
  package let documents: any DocumentStore
  private let file: VersionedFile<Stored>

  package init(durable: Bool = true, documents: any DocumentStore = LocalDocuments()) {
    self.durable = durable
    self.documents = documents
    file = VersionedFile(
      documents: documents, lockName: Self.lockName, cacheCapacity: Self.cacheCapacity,
      setAsideDurably: durable,
      decode: { data in Stored(pending: try Self.decode(data), digest: Self.digest(of: data)) })
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

  /// The file was there but was not a pending import: it has been set
  /// aside (`PendingImport.plist.corrupt-<time>`), so there is none now.
  package struct Unreadable: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
  }

  /// Runs `body` under the owner's import lock, their directory made
  /// first (an upload may be a visitor's first write).
  ///
  /// - Throws: `DocumentLock.Busy`, `DocumentError`, or what `body` throws.
  package func withLock<T>(_ owner: VisitorDirectory, _ body: () throws -> T) throws -> T {
    try documents.prepareDirectory(owner.path, durable: durable)
    return try documents.withLock(Self.lockPath(of: owner), body)
  }

  /// Writes `pending` as the owner's pending import, replacing any other;
  /// the caller holds the import lock. Dates are kept to whole seconds, as
  /// a property list keeps them. Returns the new file's digest.
  @discardableResult
  package func save(_ pending: PendingImport, for owner: VisitorDirectory) throws -> String {
    var pending = pending
    pending.created = DueDate.wholeSeconds(pending.created)
    let bytes = try Self.encode(pending)
    let path = Self.path(of: owner)
    let identity = try documents.write(Data(bytes), to: path, durable: durable)
    let stored = Stored(pending: Self.decoded(pending), digest: Self.digest(of: bytes))
    file.cacheWritten(stored, identity: identity, key: owner.key)
    return stored.digest
  }

  /// The owner's pending import, expired or not; nil when there is none.
  ///
  /// - Parameter locked: true when the caller holds the import lock (a
  ///   file that is no pending import is then set aside without taking it
  ///   again).
  /// - Throws: `Unreadable` for a file that was no pending import (set
  ///   aside now), `DocumentError` when it cannot be read, `DocumentLock.Busy`.
  package func load(of owner: VisitorDirectory, locked: Bool = false) throws -> Stored? {
    let path = Self.path(of: owner)
    do {
      return try file.value(path, key: owner.key, locked: locked)
    } catch {
      switch error {
      case .io(let error): throw error
      case .busy(let busy): throw busy
      case .setAside(let path, _, let reason): throw Unreadable(path: path, reason: "\(reason)")
      case .leftInPlace(let path, let reason):
        throw DocumentError(operation: "load", path: path, reason: .failed, detail: "\(reason)")
      case .unsettled(let path):
        throw DocumentError.unsettled(path)
      }
    }
  }

  /// Removes the owner's pending import; nothing happens when there is none.
  package func remove(of owner: VisitorDirectory) throws(DocumentError) {
    let path = Self.path(of: owner)
    guard (try documents.identity(of: path)) != nil else { return }
    try documents.remove(path, durable: durable)
  }

  // MARK: The file's format

  /// The SHA-256 of `bytes`, as 64 lower-case hex digits.
  package static func digest(of bytes: some DataProtocol) -> String {
    Hex.encode(contiguous: SHA256.hash(data: bytes))
  }

  /// The file's bytes: an XML property list, written straight into bytes
  /// (`PendingImportXMLWriter`), or by the encoder when a text holds a
  /// control character (the same bytes either way).
  package static func encode(_ pending: PendingImport) throws -> [UInt8] {
    if let bytes = PendingImportXMLWriter.document(pending) { return bytes }
    return Array(try OwnerFile.encode(File(pending)))
  }

  /// A pending import from the file's bytes, refusing another version.
  package static func decode(_ data: Data) throws -> PendingImport {
    let file = try OwnerFile.decode(File.self, from: data)
    guard file.version == version else {
      throw OwnerFile.Invalid(description: "version \(file.version), not \(version)")
    }
    return file.pending
  }

  /// What decoding the file of `pending` gives: its due dates in whole
  /// seconds (what is cached must be what a reader decodes).
  static func decoded(_ pending: PendingImport) -> PendingImport {
    var pending = pending
    for list in pending.lists.indices
    where pending.lists[list].items.contains(where: {
      $0.dueDate.map { $0 != DueDate.wholeSeconds($0) } ?? false
    }) {
      for item in pending.lists[list].items.indices {
        pending.lists[list].items[item].dueDate = pending.lists[list].items[item].dueDate.map(
          DueDate.wholeSeconds)
      }
    }
    return pending
  }

  /// The file's property list.
  struct File: Codable {
    var version: Int
    var created: Date
    var fileName: String
    var format: String
    var lists: [List]

    struct List: Codable {
      var name: String
      var icon: ChecklistIcon
      var sort: ItemSort
      /// Written only for a template.
      var template: Bool?
      var items: [Item]
    }

    struct Item: Codable {
      var text: String
      var checked: Bool
      var dueDate: Date?
      /// Written only when there is a note, as `ChecklistItem` writes it.
      var notes: String?
      /// Written only for a repeating item.
      var recurrence: String?
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
          template: list.isTemplate ? true : nil,
          items: list.items.map {
            // Whole seconds, as the model keeps them (a plist's <date> has no fraction).
            Item(
              text: $0.text, checked: $0.checked, dueDate: $0.dueDate.map(DueDate.wholeSeconds),
              notes: $0.notes.isEmpty ? nil : $0.notes, recurrence: $0.recurrence,
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
                shouldRemind: $0.shouldRemind ?? false, notes: $0.notes ?? "",
                recurrence: $0.recurrence)
            }, isTemplate: list.template ?? false)
        })
    }
  }
}
