import Foundation
import SystemPackage

/// A file's contents together with the identity of exactly that version.
package struct FileSnapshot: Sendable {
  package var contents: Data
  package var identity: FileIdentity

  package init(contents: Data, identity: FileIdentity) {
    self.contents = contents
    self.identity = identity
  }

  /// Reads the file at `path` through one descriptor, so the identity
  /// (`fstat`) belongs to the bytes read even if the file is replaced
  /// meanwhile; nil when it does not exist.
  package static func read(_ path: String) throws(FileError) -> FileSnapshot? {
    let fd: FileDescriptor
    do {
      fd = try system_open(path, .read)
    } catch .noSuchFileOrDirectory {
      return nil
    } catch {
      throw FileError(operation: "open", path: path, errno: error)
    }
    defer { system_close(fd) }
    let status: FileStatus
    do { status = try system_fstat(fd) } catch {
      throw FileError(operation: "fstat", path: path, errno: error)
    }
    let contents = try readToEnd(fd, expecting: Int(status.size), path: path)
    return FileSnapshot(contents: contents, identity: FileIdentity(status))
  }

  /// Reads `fd` from its offset to its end, in one buffer of `expecting`
  /// bytes when the file still has that size (64 KiB more at a time when it
  /// grew since).
  private static func readToEnd(_ fd: FileDescriptor, expecting size: Int, path: String)
    throws(FileError) -> Data
  {
    var data = Data(count: size)
    var offset = 0
    while true {
      if offset == data.count { data.count += 64 * 1024 }  // grew since fstat, or at the end
      let read = data.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) -> Int in
          try system_read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
        }
      }
      let count: Int
      do { count = try read.get() } catch {
        throw FileError(operation: "read", path: path, errno: error)
      }
      if count == 0 { break }
      offset += count
    }
    data.count = offset
    return data
  }
}
