import FileSystem
import Foundation
import Storage

/// A browser token as the visitor cookie carries one: 128 random bits in
/// 32 lower-case hex digits.
func browserToken(using generator: inout some RandomNumberGenerator) -> String {
  let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
  return bytes.map { String(format: "%02x", $0) }.joined()
}

/// The bytes that lower-case hex digits spell.
func bytes(ofHex hex: String) -> [UInt8] {
  let digits = Array(hex.utf8)
  return stride(from: 0, to: digits.count - 1, by: 2).map {
    UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
  }
}

/// A browser token from the system's random source.
func browserToken() -> String {
  var generator = SystemRandomNumberGenerator()
  return browserToken(using: &generator)
}

/// The devices file as it is on disk, decoded without a store (so that a
/// test's look never sets a file aside); nil when there is none.
func devicesOnDisk(of owner: VisitorDirectory) throws -> Devices? {
  guard let data = try AtomicFile.read(DeviceStore.path(of: owner)) else { return nil }
  return try Devices.decode(data)
}

/// Every regular file under `directory` with its bytes, by relative path.
func filesUnder(_ directory: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let manager = FileManager.default
  for relative in try manager.subpathsOfDirectory(atPath: directory) {
    let path = "\(directory)/\(relative)"
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
    else { continue }
    files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
  }
  return files
}
