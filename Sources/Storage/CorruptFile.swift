import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that cannot be read is never overwritten or deleted: it is moved
/// aside, next to where it was, for someone to recover (SPEC §4).
public enum CorruptFile {
  /// Renames `path` to `<path>.corrupt-<UTC time>` (with a counter when
  /// that name is taken, so an earlier one is never overwritten) and
  /// returns the new path. The caller holds the lock of the file's owner.
  ///
  /// - Parameter durable: also flush the directory, so the rename survives
  ///   a power loss.
  public static func setAside(_ path: String, durable: Bool = false) throws(FileError) -> String {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let length = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
    let stamp = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let base = "\(path).corrupt-\(stamp)"
    var target = base
    var counter = 1
    while access(target, F_OK) == 0 {
      counter += 1
      target = "\(base)-\(counter)"
    }
    guard rename(path, target) == 0 else {
      throw FileError(operation: "rename", path: path, errno: errno)
    }
    if durable { try AtomicFile.syncDirectory((path as NSString).deletingLastPathComponent) }
    return target
  }
}
