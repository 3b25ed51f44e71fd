import Foundation

/// Where the backend keeps its documents: every visitor's property lists,
/// the digest indexes and the server secret. The seam between the code that
/// decides what a document holds and the engine that keeps it:
/// `LocalDocuments` (files in the data directory, the default; in
/// `FileSystem`) or `PostgresDocuments` (a database shared by several
/// hosts; in `PostgresStore`). Only this module is seen by the code above
/// the seam, so a failure is a `DocumentError` and a version a
/// `DocumentVersion`, whatever the engine.
///
/// A document is named by its path in the data directory
/// (`DATA/users/ab/<key>/Checklists.plist`), whatever the engine: the same
/// names, the same bytes, so export, import, `checklists check` and a
/// migration between engines see one layout. The documents in one
/// directory belong to one owner (a visitor, or an index's shard); every
/// change to them is serialised by a lock named in that directory
/// (`withLock`), and a write made while holding it is acknowledged only
/// when the lock's body returns.
package protocol DocumentStore: Sendable {
  /// The identity of the document's current version (it changes with every
  /// write); nil when there is none.
  func identity(of path: String) throws(DocumentError) -> DocumentVersion?

  /// The document's bytes with the identity of exactly that version; nil
  /// when there is none.
  func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot?

  /// Replaces the document with `bytes`, atomically: a reader sees the old
  /// bytes or the new ones. Outside a lock the write is durable (with
  /// `durable`) when this returns; inside one, when the lock's body has
  /// returned.
  ///
  /// - Returns: the identity of the version written, as `identity(of:)`
  ///   would give it to a caller that holds the document's lock (what a
  ///   cache of the decoded value keeps, without asking again).
  @discardableResult
  func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError) -> DocumentVersion

  /// As `write`, for a document rewritten often under its owner's lock
  /// (the checklists): the engine may reuse space the last version held.
  @discardableResult
  func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
    -> DocumentVersion

  /// Replaces the document with `bytes` only if its version is still
  /// `expected`, holding the lock `lockPath` while it checks and writes
  /// (as a `withLock` body would); durable when this returns. How a change
  /// worked out from a version read without the lock is written: a
  /// database does it in one round trip, where a lock's body takes one per
  /// statement plus the lock's own.
  ///
  /// - Returns: `.written` with the identity of the version written, or
  ///   `.replaced`, with nothing written, when another version replaced
  ///   `expected`: that version, read under the lock (nil when the
  ///   document is gone), to work the change out again on.
  /// - Throws: as `withLock` and `replace` do.
  func replace(
    _ bytes: Data, at path: String, ifStill expected: DocumentVersion, lockPath: String,
    timeout: Duration, durable: Bool
  ) throws -> ConditionalReplace

  /// Creates the document with `bytes` unless it exists; false when it did
  /// (it is left as it was). How several processes agree on one value.
  func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool

  /// Removes the document; one that does not exist is no error.
  func remove(_ path: String, durable: Bool) throws(DocumentError)

  /// Makes `directory` ready to hold documents (and its lock).
  func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError)

  /// Runs `body` holding the exclusive lock `lockPath` (a name in the
  /// directory of the documents it guards). Locks nest on one thread.
  ///
  /// - Throws: `DocumentLock.Busy` when the lock cannot be had in time,
  ///   `DocumentError` when the engine fails, or whatever `body` throws; when
  ///   `body` throws, what it wrote may be undone (a database) or kept (a
  ///   file system), so bodies write last.
  func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws -> T

  /// Moves an unreadable document aside under a new name, never deleting
  /// it; returns that name. The caller holds the owner's lock.
  func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String

  /// Notes that the owner of the lock `lockPath` was active now (what
  /// `prune` reads); nothing when the owner has stored nothing yet.
  func markActive(_ lockPath: String)

  /// The identity of everything `directory` holds now: it changes whenever
  /// a document in it is written, removed or set aside. What a page kept
  /// for the directory's owner is checked against. Nil when it holds
  /// nothing. Its modification time is when it last changed, as far as the
  /// engine's clock tells (zero when versions need no clock).
  func identity(ofDirectory directory: String) -> DocumentVersion?

  /// True when `directory` holds anything (its owner stored something).
  func directoryExists(_ directory: String) throws(DocumentError) -> Bool

  /// The names in `directory`, sorted; none when it does not exist.
  func entries(ofDirectory directory: String) -> [String]

  /// Makes ready what the calling thread needs before its first operation
  /// (a database connection), so that a server's threads do it at start
  /// and not while a request waits. Nothing for files.
  func prepareThread() throws(DocumentError)
}

extension DocumentStore {
  package func prepareThread() throws(DocumentError) {}

  package func replace(
    _ bytes: Data, at path: String, ifStill expected: DocumentVersion, lockPath: String,
    timeout: Duration, durable: Bool
  ) throws -> ConditionalReplace {
    try replaceHoldingLock(
      bytes, at: path, ifStill: expected, lockPath: lockPath, timeout: timeout, durable: durable)
  }

  /// `replace(_:at:ifStill:…)` as a `withLock` body: what a file system
  /// does (its lock costs no round trip). A version replaced already is
  /// seen before the lock is taken (any newer version will do to work the
  /// change out again on), and a document whose directory is gone takes no
  /// lock at all.
  package func replaceHoldingLock(
    _ bytes: Data, at path: String, ifStill expected: DocumentVersion, lockPath: String,
    timeout: Duration, durable: Bool
  ) throws -> ConditionalReplace {
    guard try identity(of: path) == expected else { return .replaced(by: try snapshot(of: path)) }
    return try withLock(lockPath, timeout: timeout) { () throws -> ConditionalReplace in
      guard try identity(of: path) == expected else {
        return .replaced(by: try snapshot(of: path))
      }
      return .written(try replace(bytes, at: path, durable: durable))
    }
  }
}

extension DocumentStore {
  /// The document's bytes; nil when there is none.
  package func read(_ path: String) throws(DocumentError) -> Data? {
    try snapshot(of: path)?.contents
  }

  package func withLock<T>(_ lockPath: String, _ body: () throws -> T) throws -> T {
    try withLock(lockPath, timeout: DocumentLock.defaultTimeout, body)
  }
}
