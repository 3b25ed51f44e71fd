/// An engine could not do what the seam asked of it: a system call on a
/// file failed, or a database refused or could not be reached. One type
/// for every engine, so the code above the seam tells failures by what
/// they mean (`reason`), not by which engine said so.
package struct DocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What a caller may do about the failure.
  package enum Reason: Sendable, Equatable {
    /// The engine could not be reached (a database connection was lost or
    /// refused): the request may succeed when retried a little later,
    /// which the web layer says with `503` and `Retry-After`.
    case unavailable
    /// The path names no document this store can keep (outside its data
    /// directory, or the data directory itself).
    case invalidPath
    /// The document the operation needed is not there.
    case notFound
    /// The path names a directory where a document was asked for (on
    /// files: an empty one a first write left behind).
    case isDirectory
    /// The engine failed otherwise; `detail` says how.
    case failed
  }

  /// What was asked: the system call (`rename`) or the statement's purpose
  /// (`PostgreSQL write`).
  package var operation: String
  /// The document's path in the data directory.
  package var path: String
  package var reason: Reason
  /// The engine's own words (`No such file or directory`, a server's message).
  package var detail: String

  package init(operation: String, path: String, reason: Reason, detail: String) {
    self.operation = operation
    self.path = path
    self.reason = reason
    self.detail = detail
  }

  /// True when the engine could not be reached (see `Reason.unavailable`).
  package var isUnavailable: Bool { reason == .unavailable }

  package var description: String { "\(operation) \(path): \(detail)" }
}
