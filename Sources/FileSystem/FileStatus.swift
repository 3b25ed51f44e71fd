/// What `stat` says about a file, as far as this package needs it.
public struct FileStatus: Sendable, Equatable {
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  public var modifiedSeconds: Int64
  public var modifiedNanoseconds: Int64
  /// The number of names the file has (hard links).
  public var linkCount: Int
  public var isDirectory: Bool

  /// The status of the file at `path`, or nil when it does not exist.
  ///
  /// The corresponding C function is `stat`.
  public static func of(_ path: String) throws(FileError) -> FileStatus? {
    do {
      return try system_stat(path)
    } catch .noSuchFileOrDirectory {
      return nil
    } catch {
      throw FileError(operation: "stat", path: path, errno: error)
    }
  }
}
