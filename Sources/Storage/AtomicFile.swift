import CFileSystem
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
    let temporary = try writeTemporary(
      bytes, replacing: path, directory: directory, name: name, durable: durable,
      permissions: permissions)
    guard rename(temporary, path) == 0 else {
      let error = FileError(operation: "rename", path: path, errno: errno)
      unlink(temporary)
      throw error
    }
    if durable { try syncDirectory(directory) }
  }

  /// Replaces the file at `path` with `bytes` as `write` does, but reuses the
  /// file the previous replacement set aside instead of creating a new one.
  ///
  /// Why: creating a file costs an inode, and on ext4 without a journal each
  /// new inode is searched for past every inode freed in the last minute; at
  /// ~2,800 durable toggles a second that search took ~29% of the backend's
  /// CPU (`perf`, `scripts/bench`), and the freeing more.
  ///
  /// How: the version a write replaces stays in the directory as
  /// `.<name>.spare`. The next write truncates and fills the spare, flushes
  /// it, and swaps the two names in one step (`renameat2` with
  /// `RENAME_EXCHANGE`), then flushes the directory. So `path` always names
  /// a whole, flushed file. A reader that still has the replaced version
  /// open must not see it rewritten: the spare is reused only under a write
  /// lease, which Linux grants only when no one else has the file open and
  /// which holds back anyone who opens it until the lease is released. When
  /// it cannot be had (a reader, a file system without leases or exchange),
  /// or the spare has another name (a snapshot made with hard links),
  /// the write takes a new file as `write` does.
  ///
  /// Writes to one `path` must be serialised by the caller (the store holds
  /// the visitor's lock), since they share the spare.
  ///
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the file to replace; its directory must exist.
  ///   - durable: when false, skips the `fsync` calls.
  /// - Throws: `FileError` naming the system call that failed; `path` is
  ///   then unchanged.
  public static func replaceReusingSpare(
    _ bytes: some ContiguousBytes, at path: String, durable: Bool = true
  ) throws(FileError) {
    let (directory, name) = split(path)
    let spare = "\(directory)/.\(name).spare"
    if try refill(spare: spare, replacing: path, with: bytes, durable: durable) {
      if checklists_exchange(spare, path) == 0 {
        if durable { try syncDirectory(directory) }
        return
      }
      if errno == ENOENT, rename(spare, path) == 0 {  // nothing to replace yet
        if durable { try syncDirectory(directory) }
        return
      }
    }
    let temporary = try writeTemporary(
      bytes, replacing: path, directory: directory, name: name, durable: durable,
      permissions: 0o600)
    if checklists_exchange(temporary, path) == 0 {
      // The replaced version becomes the spare (a reader may keep the old spare open).
      if rename(temporary, spare) != 0 { unlink(temporary) }
    } else if rename(temporary, path) != 0 {
      let error = FileError(operation: "rename", path: path, errno: errno)
      unlink(temporary)
      throw error
    }
    if durable { try syncDirectory(directory) }
  }

  /// Rewrites the spare in place when it exists, no one else has it open
  /// and it has no other name; false when it cannot be reused.
  private static func refill(
    spare: String, replacing path: String, with bytes: some ContiguousBytes, durable: Bool
  ) throws(FileError) -> Bool {
    let fd = open(spare, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard checklists_take_write_lease(fd) == 0 else { return false }
    defer { _ = checklists_release_lease(fd) }
    // Another name for it (a snapshot made with hard links) must keep its version too.
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_nlink == 1 else { return false }
    var failure = writeAll(bytes, to: fd, path: spare)
    if failure == nil, ftruncate(fd, off_t(bytes.withUnsafeBytes { $0.count })) != 0 {
      failure = FileError(operation: "ftruncate", path: spare, errno: errno)
    }
    if failure == nil { failure = stampNewer(fd, than: path, naming: spare) }
    if failure == nil, durable, fsync(fd) != 0 {
      failure = FileError(operation: "fsync", path: spare, errno: errno)
    }
    if let failure { throw failure }
    return true
  }

  /// Writes `bytes` to a new temporary file next to `name`, flushed when
  /// `durable`, and returns its path; on failure nothing is left behind.
  private static func writeTemporary(
    _ bytes: some ContiguousBytes, replacing path: String, directory: String, name: String,
    durable: Bool, permissions: mode_t
  ) throws(FileError) -> String {
    let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard fd >= 0 else { throw FileError(operation: "open", path: temporary, errno: errno) }
    // The umask must not narrow a mode asked for on purpose; a private file
    // (0600) is what `open` made under any sensible umask.
    if permissions & 0o077 != 0 { fchmod(fd, permissions) }
    var failure = writeAll(bytes, to: fd, path: temporary)
    if failure == nil { failure = stampNewer(fd, than: path, naming: temporary) }
    if failure == nil, durable, fsync(fd) != 0 {
      failure = FileError(operation: "fsync", path: temporary, errno: errno)
    }
    close(fd)
    if let failure {
      unlink(temporary)
      throw failure
    }
    return temporary
  }

  /// Gives the version being written a modification time of its own: the
  /// precise time now, or 1 µs after the version it replaces when that one
  /// is not older. A kernel stamps files with a coarse clock (a jiffy, up to
  /// 10 ms) and may reuse an inode at once (this file's spare, or a freed
  /// one), so two versions written within one tick could otherwise share
  /// inode, size and time, and another process's cache (`FileIdentity`)
  /// would take the newer for the older.
  private static func stampNewer(_ fd: Int32, than path: String, naming: String) -> FileError? {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var current = stat()
    if stat(path, &current) == 0 {
      let old = current.st_mtim
      if old.tv_sec > now.tv_sec || (old.tv_sec == now.tv_sec && old.tv_nsec >= now.tv_nsec) {
        now = old
        now.tv_nsec += 1_000
        if now.tv_nsec >= 1_000_000_000 {
          now.tv_sec += 1
          now.tv_nsec -= 1_000_000_000
        }
      }
    }
    let times = [now, now]  // access and modification: a new version
    guard futimens(fd, times) == 0 else {
      return FileError(operation: "futimens", path: naming, errno: errno)
    }
    return nil
  }

  /// Writes all of `bytes` from offset 0 of `fd`; the error, if any.
  private static func writeAll(_ bytes: some ContiguousBytes, to fd: Int32, path: String)
    -> FileError?
  {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = pwrite(fd, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
        if written < 0 {
          if errno == EINTR { continue }
          return FileError(operation: "write", path: path, errno: errno)
        }
        offset += written
      }
      return nil
    }
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
