import FileSystem

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
  /// - Throws: `FileError` (`EINVAL`) for a path outside `root`.
  init(_ path: String, root: String) throws(FileError) {
    let relative = try Self.relative(path, root: root)
    guard !relative.isEmpty else {
      throw FileError(
        operation: "PostgreSQL: the data directory is no document", path: path,
        errno: .invalidArgument)
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
  static func relative(_ path: String, root: String) throws(FileError) -> String {
    if path == root { return "" }
    let prefix = root + "/"
    guard path.hasPrefix(prefix), path.count > prefix.count else {
      throw FileError(
        operation: "PostgreSQL: a path outside the data directory \(root)", path: path,
        errno: .invalidArgument)
    }
    return String(path.dropFirst(prefix.count))
  }

  /// The name the advisory lock is taken on: the relative path.
  var relativePath: String { directory.isEmpty ? name : directory + "/" + name }
}
