import SystemPackage

/// A system call on a file failed.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The system call, e.g. `rename`.
  public var operation: String
  /// The path it was called on.
  public var path: String
  /// The error it reported.
  public var errno: Errno

  public init(operation: String, path: String, errno: Errno) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  public var description: String {
    "\(operation) \(path): \(errno.description)"
  }
}
