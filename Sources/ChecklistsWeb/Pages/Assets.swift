import Crypto
import Foundation

/// The addresses of the stylesheet and the script, versioned by their
/// contents (`/style.css?v=…`): nginx lets browsers keep assets for a year,
/// and a changed file gets a new address, so nobody sees a stale one.
struct Assets: Sendable {
  let stylesheet: String
  let script: String

  init(publicDirectory: String) throws {
    stylesheet = try Self.versionedPath("style.css", in: publicDirectory)
    script = try Self.versionedPath("app.js", in: publicDirectory)
  }

  /// `/name?v=` followed by the first 12 hex digits of the file's SHA-256.
  static func versionedPath(_ name: String, in directory: String) throws -> String {
    let contents = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
    let digest = SHA256.hash(data: contents)
    let version = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    return "/\(name)?v=\(version)"
  }
}
