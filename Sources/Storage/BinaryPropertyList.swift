import Foundation

/// A look at a binary property list's object table before Foundation parses it.
public enum BinaryPropertyList {
  /// True when `data` is a binary property list (`bplist…`, whatever its version bytes: CF
  /// reads `bplist01` too) that holds a set or an
  /// ordered set, or whose trailer or offset table is out of bounds.
  ///
  /// On Linux, `PropertyListSerialization` stops the process (a null dereference while
  /// bridging `NSSet`) on a set holding a dictionary; the fuzzer found it in a
  /// 183-byte `Preferences.plist`. Neither our writer nor Python's `plistlib` writes sets,
  /// so a file with one is corrupt. Any other data (XML, not a plist) is false.
  ///
  /// - Parameter data: the file's bytes.
  /// - Returns: whether the bytes must not reach `PropertyListSerialization`.
  public static func isUnsafeToParse(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    guard bytes.starts(with: Array("bplist".utf8)) else { return false }
    // The trailer: the last 32 bytes (6 unused, offset size, ref size, 3 × UInt64).
    guard bytes.count >= 8 + 32 else { return true }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    guard let objects = bigEndian(bytes, at: trailer + 8, size: 8),
      let table = bigEndian(bytes, at: trailer + 24, size: 8),
      (1...8).contains(offsetSize), objects <= (bytes.count - table) / offsetSize
    else { return true }
    for index in 0..<objects {
      guard let offset = bigEndian(bytes, at: table + index * offsetSize, size: offsetSize),
        offset >= 8, offset < trailer
      else { return true }
      let kind = bytes[offset] >> 4
      if kind == 0xB || kind == 0xC { return true }  // ordered set, set
    }
    return false
  }

  /// A big-endian unsigned integer of `size` bytes at `offset`, or nil when it is out of
  /// bounds or larger than `Int.max / 2` (so sums and products of such values stay in range).
  private static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
    guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    return value <= UInt64(Int.max / 2) ? Int(value) : nil
  }
}
