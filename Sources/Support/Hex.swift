import Foundation

/// Lower-case hexadecimal, the spelling of visitor ids and CSRF tokens:
/// safe in a cookie, a path segment and an HTML attribute without escaping;
/// also the spelling of visitor directories' keys.
package enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// Two lower-case hex digits per byte.
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let count = bytes.underestimatedCount
    if count > 0, let text = bytes.withContiguousStorageIfAvailable({ encode($0) }) {
      return text
    }
    var text: [UInt8] = []
    text.reserveCapacity(count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Two lower-case hex digits per byte, written straight into the string.
  package static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count * 2) { text in
      let table: (UInt64, UInt64) = (0x3736_3534_3332_3130, 0x6665_6463_6261_3938)
      func digit(_ value: UInt8) -> UInt8 {
        let shift = UInt64(value & 7) * 8
        return UInt8(truncatingIfNeeded: (value < 8 ? table.0 : table.1) >> shift)
      }
      for (index, byte) in bytes.enumerated() {
        text[2 * index] = digit(byte >> 4)
        text[2 * index + 1] = digit(byte & 0x0f)
      }
      return bytes.count * 2
    }
  }

  /// Digests and MACs: their bytes, hex-encoded without a copy.
  package static func encode(contiguous bytes: some ContiguousBytes) -> String {
    bytes.withUnsafeBytes { encode($0.bindMemory(to: UInt8.self)) }
  }

  /// The bytes of an even-length string of lower-case hex digits, or nil for
  /// anything else (upper case included: we only ever issue lower case, so
  /// another spelling was not issued by us).
  package static func decodeLowercase(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count / 2)
    var index = 0
    while index < utf8.count {
      guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
