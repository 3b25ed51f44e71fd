import Documents

/// Where a document of the data directory is kept in the database: its
/// path relative to the data directory, split into the directory (the
/// owner's: `users/ab/<key>`, or "" for the data directory itself) and the
/// name in it.
struct DocumentPath: Hashable, Sendable {
  var directory: String
  var name: String

  init(directory: String, name: String) {
    self.directory = directory
    self.name = name
  }

  /// The part of `path` after `root/`, split at its last `/`.
  ///
  /// - Throws: `DocumentError` (`.invalidPath`) for a path outside `root`.
  init(_ path: String, root: String) throws(DocumentError) {
    let relative = try Self.relative(path, root: root)
    guard !relative.isEmpty else {
      throw DocumentError(
        operation: "PostgreSQL", path: path, reason: .invalidPath,
        detail: "the data directory is no document")
    }
    if let slash = relative.lastIndex(of: "/") {
      directory = String(relative[..<slash])
      name = String(relative[relative.index(after: slash)...])
    } else {
      directory = ""
      name = relative
    }
  }

  /// `path` relative to `root`: "" for `root` itself.
  static func relative(_ path: String, root: String) throws(DocumentError) -> String {
    if path == root { return "" }
    let prefix = root + "/"
    guard path.hasPrefix(prefix), path.count > prefix.count else {
      throw DocumentError(
        operation: "PostgreSQL", path: path, reason: .invalidPath,
        detail: "a path outside the data directory \(root)")
    }
    return String(path.dropFirst(prefix.count))
  }

  /// The name the advisory lock is taken on: the relative path.
  var relativePath: String { directory.isEmpty ? name : directory + "/" + name }
}
