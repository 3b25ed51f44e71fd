/// What `stat` says about a file, as far as this package needs it.
package struct FileStatus: Sendable, Equatable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var modifiedSeconds: Int64
  package var modifiedNanoseconds: Int64
  /// The number of names the file has (hard links).
  package var linkCount: Int
  package var isDirectory: Bool

  /// The status of the file at `path`, or nil when it does not exist.
  ///
  /// The corresponding C function is `stat`.
  package static func of(_ path: String) throws(FileError) -> FileStatus? {
    do {
      return try system_stat(path)
    } catch .noSuchFileOrDirectory {
      return nil
    } catch {
      throw FileError(operation: "stat", path: path, errno: error)
    }
  }
}
