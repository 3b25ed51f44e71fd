import Foundation

/// What tells one version of a document from another without reading it:
/// what a cache of decoded documents, or of whole pages, is checked
/// against. Engines fill it from what they have: a file's device, inode,
/// size and modification time (inodes repeat, so all four together); a
/// database's version number, which never repeats, and the second it was
/// written.
package struct DocumentVersion: Sendable, Hashable {
  /// Where the engine keeps the document: a file's device; 0 for a database.
  package var place: UInt64
  /// The engine's number for the version: a file's inode, a database's
  /// version (from one sequence).
  package var number: UInt64
  /// The document's size in bytes (0 for a directory's version in a database).
  package var size: Int64
  /// When it was written, as far as the engine's clock tells (a file's
  /// modification time; a database keeps whole seconds).
  package var modifiedSeconds: Int64
  package var modifiedNanoseconds: Int64

  package init(
    place: UInt64, number: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64
  ) {
    self.place = place
    self.number = number
    self.size = size
    self.modifiedSeconds = modifiedSeconds
    self.modifiedNanoseconds = modifiedNanoseconds
  }

  /// How long ago a version must have been written for its time to be told
  /// apart from a later write's: a file system's clock may move in steps
  /// (of 4 ms at 250 Hz), a write within the same step would leave the same
  /// time, and an inode may come back.
  package static let settleNanoseconds: Int64 = 20_000_000

  /// Whether this version was written at least `settleNanoseconds` before
  /// `now`, so that a later write cannot leave the same identity. `now` is
  /// read before the version is, so a write in between only looks younger.
  package func isSettled(at now: Date) -> Bool {
    let written = Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9
    return now.timeIntervalSince1970 - written >= Double(Self.settleNanoseconds) / 1e9
  }
}
