/// HTML escaping straight into a byte buffer.
///
/// Escapes `&`, `<`, `>`, `"` and `'` (as `&#39;`), which makes text safe in element content
/// and in quoted attribute values. Scans the UTF-8 bytes and copies the runs between special
/// characters in one go; multibyte characters never contain these bytes, so they pass through.
public enum HTMLEscaping {
  /// Appends `text` to `buffer`, escaped.
  public static func append(_ text: String, to buffer: inout [UInt8]) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      append(bytes, to: &buffer)
    }
    if done == nil {
      var copy = text
      copy.withUTF8 { append($0, to: &buffer) }
    }
  }

  /// Appends UTF-8 `bytes` to `buffer`, escaped.
  public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var runStart = 0
    var position = 0
    while position < count {
      // Eight bytes at a time while none of them is special: ids, tokens and most text.
      while position + 8 <= count,
        !containsSpecial(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      {
        position += 8
      }
      let stop = min(position + 8, count)
      while position < stop {
        let byte = base[position]
        // Every special character is below 64: a bit test of one constant, no table in memory.
        if byte < 64, specials & (1 &<< UInt64(byte)) != 0 {
          if runStart < position {
            buffer.append(
              contentsOf: UnsafeBufferPointer(start: base + runStart, count: position - runStart))
          }
          appendEntity(for: byte, to: &buffer)
          runStart = position + 1
        }
        position += 1
      }
    }
    if runStart < count {
      buffer.append(
        contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
  }

  /// Whether any byte of `word` is one of the five specials (SWAR: a byte equal to `c` is a
  /// zero byte of `word ^ c*0x01..01`, and `(v - 0x01..01) & ~v & 0x80..80` is nonzero exactly
  /// when `v` has a zero byte).
  @inline(__always)
  static func containsSpecial(_ word: UInt64) -> Bool {
    @inline(__always) func hasZeroByte(_ value: UInt64) -> UInt64 {
      (value &- 0x0101_0101_0101_0101) & ~value & 0x8080_8080_8080_8080
    }
    let found =
      hasZeroByte(word ^ 0x2222_2222_2222_2222) | hasZeroByte(word ^ 0x2626_2626_2626_2626)
      | hasZeroByte(word ^ 0x2727_2727_2727_2727) | hasZeroByte(word ^ 0x3C3C_3C3C_3C3C_3C3C)
      | hasZeroByte(word ^ 0x3E3E_3E3E_3E3E_3E3E)
    return found != 0
  }

  /// The escaped form of `text`, as a String (for tests and one-off uses; the renderer appends).
  public static func escape(_ text: String) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(text.utf8.count + 16)
    append(text, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Bit n is set when byte n is escaped: `"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C, `>` 0x3E.
  private static let specials: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

  @inline(__always)
  private static func appendEntity(for byte: UInt8, to buffer: inout [UInt8]) {
    let entity: StaticString
    switch byte {
    case 0x26: entity = "&amp;"
    case 0x3C: entity = "&lt;"
    case 0x3E: entity = "&gt;"
    case 0x22: entity = "&quot;"
    default: entity = "&#39;"
    }
    entity.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }
}
