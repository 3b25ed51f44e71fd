/// HTML escaping straight into a byte buffer.
///
/// Escapes `&`, `<`, `>`, `"` and `'` (as `&#39;`), which makes text safe in element content
/// and in quoted attribute values. Scans the UTF-8 bytes and copies the runs between special
/// characters in one go; multibyte characters never contain these bytes, so they pass through.
package enum HTMLEscaping {
  /// Appends `text` to `buffer`, escaped.
  package static func append(_ text: String, to buffer: inout [UInt8]) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      append(bytes, to: &buffer)
    }
    if done == nil {
      var copy = text
      copy.withUTF8 { append($0, to: &buffer) }
    }
  }

  /// Appends UTF-8 `bytes` to `buffer`, escaped.
  package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
    escape(bytes) { buffer.append(contentsOf: $0) }
  }

  /// Escapes `bytes`, handing `write` the runs and entities in order.
  @inline(__always)
  static func escape(
    _ bytes: UnsafeBufferPointer<UInt8>, _ write: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var runStart = 0
    var position = 0
    while position < count {
      // Eight bytes at a time while none of them may be special: ids, tokens and most text.
      while position + 8 <= count,
        !mayContainSpecial(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      {
        position += 8
      }
      let stop = min(position + 8, count)
      while position < stop {
        let byte = base[position]
        // Every special character is below 64: a bit test of one constant, no table in memory.
        if byte < 64, specials & (1 &<< UInt64(byte)) != 0 {
          if runStart < position {
            write(UnsafeBufferPointer(start: base + runStart, count: position - runStart))
          }
          entity(for: byte).withUTF8Buffer { write($0) }
          runStart = position + 1
        }
        position += 1
      }
    }
    if runStart < count {
      write(UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
  }

  /// False when no byte of `word` is special; true when one may be. SWAR: setting bit 0
  /// folds the five specials into four values (`"`→0x23, `&` `'`→0x27, `<`→0x3D, `>`→0x3F;
  /// `#`, `=` and `?` match too, and are then checked one byte at a time), a byte equal to
  /// `c` is a zero byte of `v ^ c*0x01..01`, and `(v - 0x01..01) & ~v & 0x80..80` is nonzero
  /// exactly when `v` has a zero byte.
  @inline(__always)
  static func mayContainSpecial(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let folded = word | ones
    let a = folded ^ 0x2323_2323_2323_2323
    let b = folded ^ 0x2727_2727_2727_2727
    let c = folded ^ 0x3D3D_3D3D_3D3D_3D3D
    let d = folded ^ 0x3F3F_3F3F_3F3F_3F3F
    let zero = ((a &- ones) & ~a) | ((b &- ones) & ~b) | ((c &- ones) & ~c) | ((d &- ones) & ~d)
    return zero & 0x8080_8080_8080_8080 != 0
  }

  /// Whether escaping `bytes` would change them.
  static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    var position = 0
    while position + 8 <= bytes.count {
      if mayContainSpecial(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) {
        break
      }
      position += 8
    }
    while position < bytes.count {
      let byte = base[position]
      if byte < 64, specials & (1 &<< UInt64(byte)) != 0 { return true }
      position += 1
    }
    return false
  }

  /// The escaped form of `text`, as a String (for tests and one-off uses; the renderer appends).
  package static func escape(_ text: String) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(text.utf8.count + 16)
    append(text, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Bit n is set when byte n is escaped: `"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C, `>` 0x3E.
  static let specials: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

  @inline(__always)
  static func entity(for byte: UInt8) -> StaticString {
    switch byte {
    case 0x26: return "&amp;"
    case 0x3C: return "&lt;"
    case 0x3E: return "&gt;"
    case 0x22: return "&quot;"
    default: return "&#39;"
    }
  }
}
