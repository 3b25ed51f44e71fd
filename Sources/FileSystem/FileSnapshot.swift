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
  /// bytes when the file still has that size: the end is confirmed by a
  /// read into a small buffer on the stack, and only a file that grew since
  /// makes the buffer grow. (Growing it by 64 KiB to read the end cost a
  /// cold visitor's page ~131,000 instructions of zeroing for its three
  /// files, in `bench-web --profile N cold`, and left each read's buffer
  /// 64 KiB longer than its bytes.)
  private static func readToEnd(_ fd: FileDescriptor, expecting size: Int, path: String)
    throws(FileError) -> Data
  {
    var data = Data(count: size)
    var offset = 0
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
      do { return try system_read(fd, into: buffer) } catch {
        throw FileError(operation: "read", path: path, errno: error)
      }
    }
    while true {
      let outcome: Result<Int, FileError>
      if offset < data.count {
        outcome = data.withUnsafeMutableBytes { buffer in
          Result { () throws(FileError) -> Int in
            try readChunk(into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
          }
        }
      } else {
        // At the size fstat gave: the end, unless the file grew meanwhile.
        outcome = withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 16) { probe in
          Result { () throws(FileError) -> Int in
            let count = try readChunk(into: probe)
            data.append(contentsOf: probe.prefix(count))
            return count
          }
        }
      }
      let count = try outcome.get()
      if count == 0 { break }
      offset += count
    }
    data.count = offset
    return data
  }
}
