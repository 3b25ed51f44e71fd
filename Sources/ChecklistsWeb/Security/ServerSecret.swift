import Crypto
import Documents
import FileSystem
import Foundation

/// The server's own 32 random bytes, the key of every CSRF token.
///
/// Kept in `DATA/secret` (mode 0600) so tokens stay valid across restarts
/// and across several backend processes sharing one data directory. Anyone
/// who reads the file can forge tokens, so it never leaves the data directory.
package struct ServerSecret: Sendable {
  /// 256 bits, the key size HMAC-SHA256 is designed for.
  package static let byteCount = 32
  /// The file's name inside the data directory.
  package static let fileName = "secret"

  /// Kept as bytes rather than a `SymmetricKey`, which is not `Sendable`;
  /// a key is made from them for each use (32 bytes copied).
  let bytes: [UInt8]

  /// A secret from known bytes (tests); nil unless exactly `byteCount` of them.
  package init?(bytes: [UInt8]) {
    guard bytes.count == Self.byteCount else { return nil }
    self.bytes = bytes
  }

  /// The HMAC key.
  var key: SymmetricKey { SymmetricKey(data: bytes) }

  /// A new secret from `SystemRandomNumberGenerator` (the kernel's CSPRNG).
  package static func random() -> ServerSecret {
    ServerSecret(bytes: randomBytes())!
  }

  static func randomBytes() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    for _ in 0..<(byteCount / 8) {
      withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }

  /// Reads `directory/secret`, creating it first when it does not exist.
  ///
  /// Creation is safe when two processes (or hosts) start at once: each
  /// offers its candidate with `DocumentStore.create`, which only the first
  /// wins; then every process reads the document back and so uses the
  /// winner's bytes. An existing file is never
  /// replaced, even when it is unreadable or the wrong size: that is an
  /// error for an operator to look at, not a reason to log everyone out.
  ///
  /// - Parameters:
  ///   - directory: the data directory; it must exist.
  ///   - documents: where it is kept (a database shared by several hosts
  ///     gives them all one secret, so each accepts the others' cookies).
  ///   - durable: when false, skips the `fsync` calls (tests).
  /// - Throws: `ServerSecretError`.
  package static func loadOrCreate(
    inDirectory directory: String, documents: any DocumentStore = LocalDocuments(),
    durable: Bool = true
  ) throws(ServerSecretError) -> ServerSecret {
    let path = "\(directory)/\(fileName)"
    if let existing = try read(path, in: documents) { return existing }
    do {
      _ = try documents.create(Data(randomBytes()), at: path, durable: durable)
    } catch {
      throw .file(error)
    }
    // Whoever won the race, the file now holds the one secret everybody uses.
    guard let secret = try read(path, in: documents) else {
      throw .file(
        DocumentError(
          operation: "read", path: path, reason: .notFound, detail: "no such document"))
    }
    return secret
  }

  /// The secret in `path`, nil when the file does not exist.
  private static func read(_ path: String, in documents: any DocumentStore)
    throws(ServerSecretError) -> ServerSecret?
  {
    let data: Data?
    do { data = try documents.read(path) } catch { throw .file(error) }
    guard let data else { return nil }
    guard let secret = ServerSecret(bytes: [UInt8](data)) else {
      throw .wrongLength(path: path, byteCount: data.count)
    }
    return secret
  }
}

/// Why the server secret could not be loaded or created.
package enum ServerSecretError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The store failed to read or create the document.
  case file(DocumentError)
  /// The file exists but does not hold exactly 32 bytes; it is left as it is.
  case wrongLength(path: String, byteCount: Int)

  package var description: String {
    switch self {
    case .file(let error): "server secret: \(error)"
    case .wrongLength(let path, let count):
      "server secret \(path) holds \(count) bytes, not \(ServerSecret.byteCount); left untouched"
    }
  }
}
