import Documents
import Foundation

/// What `checklists prune` needs of the database that a file system tells
/// by itself: when an owner was last active, how much they keep, and their
/// removal at once.
extension PostgresDocuments {
  /// When the owner of `directory` was last active (the latest write of a
  /// document in it, or `markActive`, whichever is later) and the bytes
  /// its documents hold; nil when it has neither.
  package func activity(ofDirectory directory: String) throws(DocumentError) -> (
    lastActive: Date, bytes: Int64
  )? {
    let relative = try DocumentPath.relative(directory, root: root)
    let row = try execute(Self.activity, [relative], path: directory, doing: "activity").first
    guard let row, let micros = row[0], let bytes = row[1] else { return nil }
    return (
      Date(timeIntervalSince1970: Double(Self.integer(micros)) / 1e6), Self.integer(bytes)
    )
  }

  /// Removes every document in `directory` (and below) and the
  /// directory's row, in one statement: inside the owner's lock, a request
  /// that waited for it finds nothing, as after a visitor's first visit.
  package func removeDirectory(_ directory: String) throws(DocumentError) {
    let relative = try DocumentPath.relative(directory, root: root)
    _ = try execute(Self.removal, [relative], path: directory, doing: "remove directory")
  }

  private static func integer(_ bytes: Data) -> Int64 {
    bytes.count == 8 ? bytes.reduce(0) { $0 << 8 | Int64($1) } : 0
  }

  /// (bigint microseconds since 1970 or NULL, bigint bytes).
  private static let activity = PreparedStatement(
    name: "activity",
    sql: """
      SELECT (extract(epoch FROM greatest(
          (SELECT max(written) FROM documents WHERE directory = $1::text),
          (SELECT active FROM directories WHERE directory = $1::text))) * 1000000)::bigint,
        (SELECT coalesce(sum(octet_length(bytes)), 0) FROM documents
          WHERE directory = $1::text)::bigint
      """)

  private static let removal = PreparedStatement(
    name: "remove_directory",
    sql: """
      WITH documents_gone AS (
        DELETE FROM documents
        WHERE directory = $1::text OR starts_with(directory, $1::text || '/'))
      DELETE FROM directories
      WHERE directory = $1::text OR starts_with(directory, $1::text || '/')
      """)
}
