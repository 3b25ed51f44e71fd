import Documents
import FileSystem
import Foundation

/// Copies every document of one store to another, byte for byte and under
/// the same names (the `migrate` command): from the files of a data
/// directory into a database several hosts share, or back.
///
/// Idempotent and resumable: a document the target already holds with the
/// same bytes is left alone, so running it again after an interruption
/// copies only what is missing or different. Each directory (one owner)
/// is copied under that owner's lock in the target, so its documents land
/// together. What is only in the target is kept: a migration never deletes.
package struct DocumentMigration {
  package var source: any DocumentStore
  package var sourceRoot: String
  package var target: any DocumentStore
  package var targetRoot: String

  package init(
    from source: any DocumentStore, root sourceRoot: String, to target: any DocumentStore,
    root targetRoot: String
  ) {
    self.source = source
    self.sourceRoot = sourceRoot
    self.target = target
    self.targetRoot = targetRoot
  }

  /// What a run did.
  package struct Report: Sendable, Equatable {
    /// Documents written to the target.
    package var copied = 0
    /// Documents the target already held with the same bytes.
    package var unchanged = 0
    /// Directories walked.
    package var directories = 0
  }

  /// Copies everything under the source's root.
  ///
  /// - Throws: the first `DocumentError` or `DocumentLock.Busy`; what was copied
  ///   before it stays, and a new run goes on from there.
  package func run() throws -> Report {
    var report = Report()
    try copy(directory: "", into: &report)
    return report
  }

  /// The bookkeeping names a store keeps beside documents (locks, spares,
  /// temporary files of a write under way) start with a dot; documents
  /// never do.
  static func isDocumentName(_ name: String) -> Bool { !name.hasPrefix(".") }

  /// The lock that guards a directory's documents in the target: the one
  /// every owner's change takes (`VisitorDirectory.checklistsLockName`).
  static let lockName = ".Checklists.lock"

  private func copy(directory relative: String, into report: inout Report) throws {
    report.directories += 1
    let sourceDirectory = relative.isEmpty ? sourceRoot : "\(sourceRoot)/\(relative)"
    let targetDirectory = relative.isEmpty ? targetRoot : "\(targetRoot)/\(relative)"
    var documents: [(name: String, bytes: Data)] = []
    for name in source.entries(ofDirectory: sourceDirectory) where Self.isDocumentName(name) {
      let child = relative.isEmpty ? name : "\(relative)/\(name)"
      let path = "\(sourceDirectory)/\(name)"
      // A document is read once; only what is none is listed (on PostgreSQL
      // each is a statement, and documents far outnumber directories).
      if let bytes = try readDocument(path) {
        documents.append((name, bytes))
      } else if !source.entries(ofDirectory: path).isEmpty {
        try copy(directory: child, into: &report)
      }
    }
    guard !documents.isEmpty else { return }
    try target.prepareDirectory(targetDirectory, durable: true)
    try target.withLock("\(targetDirectory)/\(Self.lockName)") { () throws -> Void in
      for (name, bytes) in documents {
        let path = "\(targetDirectory)/\(name)"
        if try target.read(path) == bytes {
          report.unchanged += 1
        } else {
          try target.write(bytes, to: path, durable: true)
          report.copied += 1
        }
      }
    }
  }

  /// A document's bytes; nil for a directory (an empty one: a first write
  /// that failed left it, and holds nothing to copy).
  private func readDocument(_ path: String) throws -> Data? {
    do {
      return try source.read(path)
    } catch  where error.reason == .isDirectory {
      return nil
    }
  }
}
