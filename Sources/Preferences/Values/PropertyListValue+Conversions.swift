import Foundation
import PropertyList

/// The typed getters' conversions, as swift-corelibs-foundation's
/// `UserDefaults` does them (see USERDEFAULTS.md): numbers and booleans
/// convert into each other, strings are scanned leniently.
extension PropertyListValue {
  var integerValue: Int {
    switch self {
    case .integer(let value): return value
    case .bool(let value): return value ? 1 : 0
    case .real(let value): return PropertyListValue.truncated(value)
    case .string(let value): return PropertyListValue.scannedInteger(value)
    default: return 0
    }
  }

  var doubleValue: Double {
    switch self {
    case .integer(let value): return Double(value)
    case .bool(let value): return value ? 1 : 0
    case .real(let value): return value
    case .string(let value): return PropertyListValue.scannedDouble(value)
    default: return 0
    }
  }

  var boolValue: Bool {
    switch self {
    case .integer(let value): return value != 0
    case .bool(let value): return value
    case .real(let value): return value != 0
    case .string(let value): return PropertyListValue.scannedBool(value)
    default: return false
    }
  }

  var stringValue: String? {
    switch self {
    case .string(let value): return value
    case .integer(let value): return String(value)
    case .bool(let value): return value ? "1" : "0"
    case .real(let value): return PropertyListValue.text(of: value)
    default: return nil
    }
  }

  var urlValue: URL? {
    guard case .string(let value) = self, !value.isEmpty else { return nil }
    if let url = URL(string: value), url.scheme != nil { return url }
    // As Foundation: a plain string is a path, `~` expanded.
    return URL(fileURLWithPath: NSString(string: value).expandingTildeInPath)
  }

  /// A `Double`'s shortest text that reads back the same (`12.34`, `42.0`
  /// prints as `42`, as NSNumber's description does).
  static func text(of value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  /// Truncates toward zero; NaN is 0 and out-of-range values saturate
  /// (Foundation's `intValue` would be undefined behaviour there).
  static func truncated(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    if value >= 0x1p63 { return .max }
    if value <= -0x1p63 { return .min }
    return Int(value)
  }

  /// `NSString.integerValue`: leading whitespace, optional sign, digits;
  /// whatever follows is ignored (`"42abc"` is 42, `"abc"` is 0).
  static func scannedInteger(_ text: String) -> Int {
    var bytes = text.utf8.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) })[...]
    var negative = false
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    var result = 0
    for byte in bytes {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
      let digit = Int(byte - 0x30)
      let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return negative ? .min : .max }
      result = next
    }
    return result
  }

  /// `NSString.doubleValue`: the longest leading decimal number, else 0.
  static func scannedDouble(_ text: String) -> Double {
    let bytes = Array(text.utf8.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) }))
    var end = 0
    var best = 0
    func digits() -> Bool {
      let start = end
      while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
        end += 1
      }
      return end > start
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") {
      end += 1
    }
    var seenDigits = digits()
    if seenDigits { best = end }
    if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
      end += 1
      if digits() { seenDigits = true }
      if seenDigits { best = end }
    }
    if seenDigits, end < bytes.count,
      bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")
    {
      end += 1
      if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") {
        end += 1
      }
      if digits() { best = end }
    }
    guard best > 0 else { return 0 }
    return Double(String(decoding: bytes[0..<best], as: UTF8.self)) ?? 0
  }

  /// `NSString.boolValue`: leading whitespace skipped; true on a leading
  /// t, T, y or Y, else true when an optional sign and zeros are followed by
  /// a digit 1–9.
  static func scannedBool(_ text: String) -> Bool {
    var bytes = text.utf8.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) })[...]
    guard let first = bytes.first else { return false }
    if "tTyY".utf8.contains(first) { return true }
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    bytes = bytes.drop(while: { $0 == UInt8(ascii: "0") })
    guard let digit = bytes.first else { return false }
    return (0x31...0x39).contains(digit)
  }
}
