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

  /// True when the store that keeps the documents (a database) could not
  /// be reached: nothing was written, and a retry may well succeed.
  package var isUnavailable: Bool { errno == .socketNotConnected }

  package var description: String {
    "\(operation) \(path): \(errno.description)"
  }
}
