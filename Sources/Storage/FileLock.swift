#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a lock file.
///
/// Each acquisition opens the file anew, so the lock serialises threads of
/// one process as well as separate processes that share the data directory
/// (flock locks belong to the open file description, not to the process).
public enum FileLock {
  /// Runs `body` while holding an exclusive lock on `path` (created if missing).
  ///
  /// - Throws: `FileError` when the lock cannot be taken, or whatever `body` throws.
  public static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(operation: "open", path: path, errno: errno) }
    defer { close(fd) }  // closing the descriptor releases the lock
    while flock(fd, LOCK_EX) != 0 {
      if errno != EINTR { throw FileError(operation: "flock", path: path, errno: errno) }
    }
    return try body()
  }
}
