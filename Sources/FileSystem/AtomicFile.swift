import Documents
import Foundation
import SystemPackage

/// Writes a file so that readers and a crash at any moment see either the
/// old contents or the new ones, never a mix or nothing.
///
/// The sequence is: write a temporary file in the same directory, `fsync`
/// it, `rename` it over the target, `fsync` the directory (so the rename
/// itself survives a power loss).
package enum AtomicFile {
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
  package static func write(
    _ bytes: some ContiguousBytes, to path: String, durable: Bool = true,
    permissions: UInt32 = 0o600
  ) throws(FileError) {
    let (directory, name) = split(path)
    let temporary = try writeTemporary(
      bytes, replacing: path, directory: directory, name: name, durable: durable,
      permissions: permissions)
    do { try system_rename(temporary, path) } catch {
      try? system_unlink(temporary)
      throw FileError(operation: "rename", path: path, errno: error)
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
  package static func replaceReusingSpare(
    _ bytes: some ContiguousBytes, at path: String, durable: Bool = true
  ) throws(FileError) {
    let (directory, name) = split(path)
    let spare = "\(directory)/.\(name).spare"
    if try refill(spare: spare, replacing: path, with: bytes, durable: durable) {
      let swapped: Bool
      do {
        try system_exchange(spare, path)
        swapped = true
      } catch .noSuchFileOrDirectory {
        swapped = (try? system_rename(spare, path)) != nil  // nothing to replace yet
      } catch {
        swapped = false
      }
      if swapped {
        if durable { try syncDirectory(directory) }
        return
      }
    }
    let temporary = try writeTemporary(
      bytes, replacing: path, directory: directory, name: name, durable: durable,
      permissions: 0o600)
    if (try? system_exchange(temporary, path)) != nil {
      // The replaced version becomes the spare (a reader may keep the old spare open).
      if (try? system_rename(temporary, spare)) == nil { try? system_unlink(temporary) }
    } else {
      do { try system_rename(temporary, path) } catch {
        try? system_unlink(temporary)
        throw FileError(operation: "rename", path: path, errno: error)
      }
    }
    if durable { try syncDirectory(directory) }
  }

  /// Rewrites the spare in place when it exists, no one else has it open
  /// and it has no other name; false when it cannot be reused.
  private static func refill(
    spare: String, replacing path: String, with bytes: some ContiguousBytes, durable: Bool
  ) throws(FileError) -> Bool {
    guard let fd = try? system_open(spare, .rewrite) else { return false }
    defer { system_close(fd) }
    guard (try? system_take_write_lease(fd)) != nil else { return false }
    defer { system_release_lease(fd) }
    // Another name for it (a snapshot made with hard links) must keep its version too.
    guard let status = try? system_fstat(fd), status.linkCount == 1 else { return false }
    try writeAll(bytes, to: fd, path: spare)
    do { try system_ftruncate(fd, bytes.withUnsafeBytes { $0.count }) } catch {
      throw FileError(operation: "ftruncate", path: spare, errno: error)
    }
    try stampNewer(fd, than: path, naming: spare)
    if durable { try flush(fd, path: spare) }
    return true
  }

  /// Writes `bytes` to a new temporary file next to `name`, flushed when
  /// `durable`, and returns its path; on failure nothing is left behind.
  private static func writeTemporary(
    _ bytes: some ContiguousBytes, replacing path: String, directory: String, name: String,
    durable: Bool, permissions: UInt32
  ) throws(FileError) -> String {
    let temporary =
      "\(directory)/.\(name).tmp-\(system_getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd: FileDescriptor
    do { fd = try system_open(temporary, .createNew, permissions: permissions) } catch {
      throw FileError(operation: "open", path: temporary, errno: error)
    }
    // The umask must not narrow a mode asked for on purpose; a private file
    // (0600) is what `open` made under any sensible umask.
    if permissions & 0o077 != 0 { try? system_fchmod(fd, permissions) }
    do throws(FileError) {
      try writeAll(bytes, to: fd, path: temporary)
      try stampNewer(fd, than: path, naming: temporary)
      if durable { try flush(fd, path: temporary) }
    } catch {
      system_close(fd)
      try? system_unlink(temporary)
      throw error
    }
    system_close(fd)
    return temporary
  }

  /// Gives the version being written a modification time of its own: the
  /// precise time now, or 1 µs after the version it replaces when that one
  /// is not older. A kernel stamps files with a coarse clock (a jiffy, up to
  /// 10 ms) and may reuse an inode at once (this file's spare, or a freed
  /// one), so two versions written within one tick could otherwise share
  /// inode, size and time, and another process's cache (`FileIdentity`)
  /// would take the newer for the older.
  private static func stampNewer(_ fd: FileDescriptor, than path: String, naming: String)
    throws(FileError)
  {
    var stamp = system_clock_realtime()
    if let current = try? system_stat(path) {
      let old = FileTime(seconds: current.modifiedSeconds, nanoseconds: current.modifiedNanoseconds)
      if old >= stamp {
        stamp = old
        stamp.nanoseconds += 1_000
        if stamp.nanoseconds >= 1_000_000_000 {
          stamp.seconds += 1
          stamp.nanoseconds -= 1_000_000_000
        }
      }
    }
    // Access and modification: a new version.
    do { try system_futimens(fd, stamp) } catch {
      throw FileError(operation: "futimens", path: naming, errno: error)
    }
  }

  /// Writes all of `bytes` from offset 0 of `fd`.
  private static func writeAll(_ bytes: some ContiguousBytes, to fd: FileDescriptor, path: String)
    throws(FileError)
  {
    let written = bytes.withUnsafeBytes { buffer in
      Result { () throws(Errno) in
        var offset = 0
        while offset < buffer.count {
          offset += try system_pwrite(
            fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]), at: offset)
        }
      }
    }
    do { try written.get() } catch {
      throw FileError(operation: "write", path: path, errno: error)
    }
  }

  /// Flushes the file `fd` to disk.
  private static func flush(_ fd: FileDescriptor, path: String) throws(FileError) {
    do { try system_fsync(fd) } catch {
      throw FileError(operation: "fsync", path: path, errno: error)
    }
  }

  /// A path's directory ("." when it names none) and last component: the
  /// split every engine makes (`DocumentName`).
  package static func split(_ path: String) -> (directory: String, name: String) {
    DocumentName.split(path)
  }

  /// Flushes a directory's entries (a rename or a new file in it) to disk.
  package static func syncDirectory(_ directory: String) throws(FileError) {
    let fd: FileDescriptor
    do { fd = try system_open(directory, .directory) } catch {
      throw FileError(operation: "open", path: directory, errno: error)
    }
    defer { system_close(fd) }
    try flush(fd, path: directory)
  }

  /// Reads a whole file, or returns nil when it does not exist.
  package static func read(_ path: String) throws(FileError) -> Data? {
    try FileSnapshot.read(path)?.contents
  }
}
