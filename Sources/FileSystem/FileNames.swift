/// Operations on the names in a directory, for the modules above this one,
/// which call no C themselves.
package enum FileNames {
  /// Gives the file at `existing` the name `new` as well, in one step that
  /// fails when `new` exists: how several processes agree on which of their
  /// candidates becomes a file.
  ///
  /// The corresponding C function is `link`.
  ///
  /// - Returns: false when `new` already existed (it is left as it was).
  /// - Throws: `FileError` for any other failure.
  package static func link(_ existing: String, as new: String) throws(FileError) -> Bool {
    do {
      try system_link(existing, new)
      return true
    } catch .fileExists {
      return false
    } catch {
      throw FileError(operation: "link", path: new, errno: error)
    }
  }

  /// Removes the name `path`; a name that does not exist is no error.
  ///
  /// The corresponding C function is `unlink`.
  package static func remove(_ path: String) throws(FileError) {
    do { try system_unlink(path) } catch .noSuchFileOrDirectory {} catch {
      throw FileError(operation: "unlink", path: path, errno: error)
    }
  }

  /// Renames `path` to `newPath` in one step, replacing a file of that name.
  ///
  /// The corresponding C function is `rename`.
  package static func rename(_ path: String, to newPath: String) throws(FileError) {
    do { try system_rename(path, newPath) } catch {
      throw FileError(operation: "rename", path: path, errno: error)
    }
  }

  /// Sets the access and modification times of the file at `path` to the
  /// present: metadata only, nothing is created or written. False when
  /// there is no such file.
  ///
  /// The corresponding C function is `utimensat`.
  @discardableResult
  package static func markModifiedNow(_ path: String) -> Bool {
    (try? system_utimensat_now(path)) != nil
  }
}
