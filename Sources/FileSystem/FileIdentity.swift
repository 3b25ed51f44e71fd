import SystemPackage

/// What tells one version of a file from another without reading it. A
/// write puts another inode in place (a new one, or the spare of the
/// version before), so the inode alone may repeat; `AtomicFile` stamps each
/// version with a modification time (nanoseconds) after its predecessor's,
/// so inode, size and time together do not.
package struct FileIdentity: Sendable, Hashable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var modifiedSeconds: Int64
  package var modifiedNanoseconds: Int64

  init(_ status: FileStatus) {
    device = status.device
    inode = status.inode
    size = status.size
    modifiedSeconds = status.modifiedSeconds
    modifiedNanoseconds = status.modifiedNanoseconds
  }

  /// The identity of the file at `path`, or nil when it does not exist.
  ///
  /// The corresponding C function is `stat`.
  package static func of(_ path: String) throws(FileError) -> FileIdentity? {
    do {
      return FileIdentity(try system_stat(path))
    } catch .noSuchFileOrDirectory {
      return nil
    } catch {
      throw FileError(operation: "stat", path: path, errno: error)
    }
  }
}
