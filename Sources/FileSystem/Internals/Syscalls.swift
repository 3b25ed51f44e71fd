// swift-format-ignore-file: AlwaysUseLowerCamelCase
// `system_<C name>`: swift-system's naming for its wrappers of C calls.

import CFileSystem
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

// The one place where this package's file-system layer calls C: each
// wrapper makes one call (retried on `EINTR` where the call can be
// interrupted) and returns a Swift value or throws the `Errno` it set.
// Paths are `String`s, passed to C without a copy: a page view stats two
// files, and `FilePath`'s parsing of a path would cost more than the `stat`.

/// The value of a call that returns -1 and sets `errno` on failure.
@inline(__always)
private func valueOrErrno<I: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ call: () -> I
) throws(Errno) -> I {
  while true {
    let value = call()
    if value != -1 { return value }
    let error = Errno(rawValue: errno)
    if retryOnInterrupt && error == .interrupted { continue }
    throw error
  }
}

extension FileStatus {
  init(_ info: stat) {
    self.init(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedSeconds: Int64(info.st_mtim.tv_sec),
      modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), linkCount: Int(info.st_nlink),
      isDirectory: info.st_mode & S_IFMT == S_IFDIR)
  }
}

/// How `system_open` opens a file.
enum OpenMode {
  /// Reading only.
  case read
  /// A directory, for `fsync`.
  case directory
  /// Reading and writing an existing file, not through a symbolic link.
  case rewrite
  /// A new file, for writing; fails when the name exists.
  case createNew
  /// Reading and writing, created when missing (a lock file).
  case createOrOpen

  var flags: CInt {
    switch self {
    case .read: O_RDONLY | O_CLOEXEC
    case .directory: O_RDONLY | O_DIRECTORY | O_CLOEXEC
    case .rewrite: O_RDWR | O_CLOEXEC | O_NOFOLLOW
    case .createNew: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
    case .createOrOpen: O_RDWR | O_CREAT | O_CLOEXEC
    }
  }
}

/// The corresponding C function is `open`.
func system_open(_ path: String, _ mode: OpenMode, permissions: UInt32 = 0o600) throws(Errno)
  -> FileDescriptor
{
  FileDescriptor(rawValue: try valueOrErrno { open(path, mode.flags, mode_t(permissions)) })
}

/// The corresponding C function is `close`; its failure changes nothing
/// for a file that was only read, or written and flushed before.
func system_close(_ fd: FileDescriptor) {
  _ = close(fd.rawValue)
}

/// The corresponding C function is `stat`.
func system_stat(_ path: String) throws(Errno) -> FileStatus {
  var info = stat()
  _ = try valueOrErrno(retryOnInterrupt: false) { stat(path, &info) }
  return FileStatus(info)
}

/// The corresponding C function is `fstat`.
func system_fstat(_ fd: FileDescriptor) throws(Errno) -> FileStatus {
  var info = stat()
  _ = try valueOrErrno(retryOnInterrupt: false) { fstat(fd.rawValue, &info) }
  return FileStatus(info)
}

/// Reads into `buffer` from the current offset; 0 at the end of the file.
///
/// The corresponding C function is `read`.
func system_read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
  -> Int
{
  try valueOrErrno { read(fd.rawValue, buffer.baseAddress, buffer.count) }
}

/// Writes `buffer` at `offset`; the number of bytes written.
///
/// The corresponding C function is `pwrite`.
func system_pwrite(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer, at offset: Int)
  throws(Errno) -> Int
{
  try valueOrErrno { pwrite(fd.rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
}

/// The corresponding C function is `ftruncate`.
func system_ftruncate(_ fd: FileDescriptor, _ length: Int) throws(Errno) {
  _ = try valueOrErrno { ftruncate(fd.rawValue, off_t(length)) }
}

/// The corresponding C function is `fsync`.
func system_fsync(_ fd: FileDescriptor) throws(Errno) {
  _ = try valueOrErrno { fsync(fd.rawValue) }
}

/// The corresponding C function is `fchmod`.
func system_fchmod(_ fd: FileDescriptor, _ permissions: UInt32) throws(Errno) {
  _ = try valueOrErrno { fchmod(fd.rawValue, mode_t(permissions)) }
}

/// Sets the access and modification times of `fd` to `time`.
///
/// The corresponding C function is `futimens`.
func system_futimens(_ fd: FileDescriptor, _ time: FileTime) throws(Errno) {
  let stamp = timespec(tv_sec: Int(time.seconds), tv_nsec: Int(time.nanoseconds))
  let times = [stamp, stamp]
  _ = try valueOrErrno(retryOnInterrupt: false) { futimens(fd.rawValue, times) }
}

/// Sets the access and modification times of `path` to the present.
///
/// The corresponding C function is `utimensat`.
func system_utimensat_now(_ path: String) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { utimensat(AT_FDCWD, path, nil, 0) }
}

/// The corresponding C function is `rename`.
func system_rename(_ from: String, _ to: String) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { rename(from, to) }
}

/// Swaps the names `from` and `to` in one step.
///
/// The corresponding C function is `renameat2` with `RENAME_EXCHANGE`.
func system_exchange(_ from: String, _ to: String) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { checklists_exchange(from, to) }
}

/// The corresponding C function is `link`.
func system_link(_ existing: String, _ new: String) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { link(existing, new) }
}

/// The corresponding C function is `unlink`.
func system_unlink(_ path: String) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { unlink(path) }
}

/// The corresponding C function is `mkdir`.
func system_mkdir(_ path: String, _ permissions: UInt32) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { mkdir(path, mode_t(permissions)) }
}

/// Whether a file named `path` exists.
///
/// The corresponding C function is `access` with `F_OK`.
func system_exists(_ path: String) -> Bool {
  access(path, F_OK) == 0
}

/// Takes an exclusive `flock` without waiting; false when someone else holds it.
///
/// The corresponding C function is `flock` with `LOCK_EX | LOCK_NB`.
func system_flock_exclusive_nonblocking(_ fd: FileDescriptor) throws(Errno) -> Bool {
  do {
    _ = try valueOrErrno { flock(fd.rawValue, LOCK_EX | LOCK_NB) }
    return true
  } catch  where error == .wouldBlock {
    return false
  }
}

/// Takes a write lease: granted only when no other open file description
/// refers to the file.
///
/// The corresponding C function is `fcntl` with `F_SETLEASE`, `F_WRLCK`.
func system_take_write_lease(_ fd: FileDescriptor) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: false) { checklists_take_write_lease(fd.rawValue) }
}

/// The corresponding C function is `fcntl` with `F_SETLEASE`, `F_UNLCK`.
func system_release_lease(_ fd: FileDescriptor) {
  _ = checklists_release_lease(fd.rawValue)
}

/// The process's id.
///
/// The corresponding C function is `getpid`.
func system_getpid() -> Int32 {
  getpid()
}

/// A time of the real-time clock, in seconds and nanoseconds since 1970.
struct FileTime: Sendable, Comparable {
  var seconds: Int64
  var nanoseconds: Int64

  static func < (a: FileTime, b: FileTime) -> Bool {
    (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
  }
}

/// The present, to the nanosecond.
///
/// The corresponding C function is `clock_gettime` with `CLOCK_REALTIME`.
func system_clock_realtime() -> FileTime {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  return FileTime(seconds: Int64(now.tv_sec), nanoseconds: Int64(now.tv_nsec))
}

/// Sleeps the calling thread (a worker thread, never a task) for `duration`,
/// the rest of it again when a signal interrupts.
///
/// The corresponding C function is `nanosleep`.
func system_nanosleep(_ duration: Duration) {
  let (seconds, attoseconds) = duration.components
  var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
  var remaining = timespec()
  while nanosleep(&pause, &remaining) != 0 && errno == EINTR { pause = remaining }
}
