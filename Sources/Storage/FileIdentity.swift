import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What tells one version of a file from another without reading it. A
/// write puts another inode in place (a new one, or the spare of the
/// version before), so the inode alone may repeat; `AtomicFile` stamps each
/// version with a modification time (nanoseconds) after its predecessor's,
/// so inode, size and time together do not.
public struct FileIdentity: Sendable, Hashable {
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  public var modifiedSeconds: Int64
  public var modifiedNanoseconds: Int64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modifiedSeconds = Int64(info.st_mtim.tv_sec)
    modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
  }

  /// The identity of the file at `path`, or nil when it does not exist.
  ///
  /// The corresponding C function is `stat`.
  public static func of(_ path: String) throws(FileError) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw FileError(operation: "stat", path: path, errno: errno)
    }
    return FileIdentity(info)
  }
}

/// A file's contents together with the identity of exactly that version.
public struct FileSnapshot: Sendable {
  public var contents: Data
  public var identity: FileIdentity

  /// Reads the file at `path` through one descriptor, so the identity
  /// (`fstat`) belongs to the bytes read even if the file is replaced
  /// meanwhile; nil when it does not exist.
  public static func read(_ path: String) throws(FileError) -> FileSnapshot? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw FileError(operation: "open", path: path, errno: errno)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw FileError(operation: "fstat", path: path, errno: errno)
    }
    var data = Data(count: Int(info.st_size))
    var offset = 0
    while true {
      if offset == data.count { data.count += 64 * 1024 }  // grew since fstat, or at the end
      let count = data.withUnsafeMutableBytes { buffer in
        Glibc.read(fd, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError(operation: "read", path: path, errno: errno)
      }
      if count == 0 { break }
      offset += count
    }
    data.count = offset
    return FileSnapshot(contents: data, identity: FileIdentity(info))
  }
}
