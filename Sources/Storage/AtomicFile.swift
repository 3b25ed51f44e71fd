import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file so that readers and a crash at any moment see either the
/// old contents or the new ones, never a mix or nothing.
///
/// The sequence is: write a temporary file in the same directory, `fsync`
/// it, `rename` it over the target, `fsync` the directory (so the rename
/// itself survives a power loss).
public enum AtomicFile {
  /// Replaces the file at `path` with `bytes`, atomically and durably.
  ///
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the file to replace; its directory must exist.
  ///   - durable: when false, skips both `fsync` calls (for tests and
  ///     benchmarks that measure everything but the disk).
  ///   - permissions: the new file's mode; private (0600) unless the file
  ///     is meant for others, as nginx's static pages are.
  /// - Throws: `FileError` naming the system call that failed.
  public static func write(
    _ bytes: some ContiguousBytes, to path: String, durable: Bool = true,
    permissions: mode_t = 0o600
  ) throws(FileError) {
    let (directory, name) = split(path)
    let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard fd >= 0 else { throw FileError(operation: "open", path: temporary, errno: errno) }
    // The umask must not narrow a mode asked for on purpose; a private file
    // (0600) is what `open` made under any sensible umask.
    if permissions & 0o077 != 0 { fchmod(fd, permissions) }
    var failure: FileError?
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = FileError(operation: "write", path: temporary, errno: errno)
          return
        }
        offset += written
      }
    }
    if failure == nil, durable, fsync(fd) != 0 {
      failure = FileError(operation: "fsync", path: temporary, errno: errno)
    }
    close(fd)
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else {
      let error = FileError(operation: "rename", path: path, errno: errno)
      unlink(temporary)
      throw error
    }
    if durable { try syncDirectory(directory) }
  }

  /// A path's directory ("." when it names none) and last component.
  ///
  /// By bytes, not with `NSString`'s path methods: those cost 8% of the
  /// backend's CPU per durable toggle (`perf`), every change writes here.
  static func split(_ path: String) -> (directory: String, name: String) {
    let bytes = path.utf8
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    let directory = slash == bytes.startIndex ? "/" : String(path[..<slash])
    return (directory, String(path[path.index(after: slash)...]))
  }

  /// Flushes a directory's entries (a rename or a new file in it) to disk.
  public static func syncDirectory(_ directory: String) throws(FileError) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw FileError(operation: "open", path: directory, errno: errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw FileError(operation: "fsync", path: directory, errno: errno) }
  }

  /// Reads a whole file, or returns nil when it does not exist.
  public static func read(_ path: String) throws(FileError) -> Data? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw FileError(operation: "open", path: path, errno: errno)
    }
    defer { close(fd) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError(operation: "read", path: path, errno: errno)
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[0..<count])
    }
    return data
  }
}
