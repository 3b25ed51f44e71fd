/// Lower-case hexadecimal, the spelling of visitor ids and CSRF tokens:
/// safe in a cookie, a path segment and an HTML attribute without escaping;
/// also the spelling of visitor directories' keys.
public enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// Two lower-case hex digits per byte.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of an even-length string of lower-case hex digits, or nil for
  /// anything else (upper case included: we only ever issue lower case, so
  /// another spelling was not issued by us).
  public static func decodeLowercase(_ text: String) -> [UInt8]? {
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
