import SystemPackage

/// A system call on a file failed.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The system call, e.g. `rename`.
  package var operation: String
  /// The path it was called on.
  package var path: String
  /// The error it reported.
  package var errno: Errno

  package init(operation: String, path: String, errno: Errno) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  package var description: String {
    "\(operation) \(path): \(errno.description)"
  }
}
