import Foundation

/// A fresh private directory under the system's temporary directory, removed
/// when the value is released: the one temporary-directory helper of every
/// test target (a Swift Testing suite keeps it in a stored property, so each
/// test gets its own and its `deinit` cleans up).
public final class TemporaryDirectory: Sendable {
  /// The directory's absolute path.
  public let path: String

  /// - Parameter prefix: the start of the directory's name, to tell which
  ///   test left it behind if removal fails.
  public init(_ prefix: String = "checklists") {
    let safe = prefix.filter { $0.isLetter || $0.isNumber || $0 == "-" }
    path = NSTemporaryDirectory() + "\(safe)-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  /// A path inside the directory.
  public func appending(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
