#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call on a file failed.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The system call, e.g. `rename`.
  public var operation: String
  /// The path it was called on.
  public var path: String
  /// The `errno` it set.
  public var errno: Int32

  public init(operation: String, path: String, errno: Int32) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  public var description: String {
    "\(operation) \(path): \(String(cString: strerror(errno)))"
  }
}
