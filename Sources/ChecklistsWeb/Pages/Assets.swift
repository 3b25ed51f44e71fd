import Crypto
import Foundation

/// The addresses of the stylesheet, the scripts and iOS's home screen
/// icon, versioned by their contents (`/style.css?v=…`): nginx lets
/// browsers keep assets for a year, and a changed file gets a new address,
/// so nobody sees a stale one.
struct Assets: Sendable {
  let stylesheet: String
  let script: String
  /// The queue of changes made offline (`queue.js`), which `app.js` loads
  /// once the page has loaded (named in its tag's `data-queue`) and the
  /// service worker imports in the same version.
  let queueScript: String
  /// The 180-pixel `apple-touch-icon`, drawn by `checklists generate`: its
  /// plain address (a `404`) until then.
  let touchIcon: String

  init(publicDirectory: String) throws {
    stylesheet = try Self.versionedPath("style.css", in: publicDirectory)
    script = try Self.versionedPath("app.js", in: publicDirectory)
    queueScript = try Self.versionedPath("queue.js", in: publicDirectory)
    let icon = AppIcons.touchIcon.file
    touchIcon =
      FileManager.default.fileExists(atPath: "\(publicDirectory)/\(icon)")
      ? try Self.versionedPath(icon, in: publicDirectory) : "/\(icon)"
  }

  /// `/name?v=` followed by the first 12 hex digits of the file's SHA-256.
  static func versionedPath(_ name: String, in directory: String) throws -> String {
    let contents = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
    let digest = SHA256.hash(data: contents)
    let version = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    return "/\(name)?v=\(version)"
  }
}
