import FastCGI

/// A strong validator for a rendered page: the quoted 64-bit hash of its
/// bytes and their length, e.g. `"3f2a9c0b1d4e5f60-1a2b"`.
///
/// Not cryptographic, and it need not be: it is compared only with the tag
/// this visitor's own browser got for the same address. 64 bits plus the
/// length make an accidental collision between two versions of one page
/// vanishingly unlikely. The hash reads 8 bytes at a time in four
/// independent lanes: a 22 KiB page took 27 µs with byte-wise FNV-1a,
/// about 2 µs this way (`bench-web`).
package struct ETag: Sendable, Hashable, CustomStringConvertible {
  /// The header value, quotes included.
  package let value: String

  /// The tag of `body`.
  package init(body: [UInt8]) {
    let hash = body.withUnsafeBytes { Self.hash($0) }
    value = Self.quoted(hash: hash, length: body.count)
  }

  /// `"HHHHHHHHHHHHHHHH-L"`: the hash in 16 hex digits, the length in as
  /// few, written in place into one string. Interpolating `String(_:radix:)`
  /// twice cost ~3,700 instructions a page, half of hashing its 7 KB; the
  /// hash's digits from `Hex.encode` joined to the rest still ~4,000
  /// (callgrind, `bench-web --profile N computed`).
  static func quoted(hash: UInt64, length: Int) -> String {
    let digits: StaticString = "0123456789abcdef"
    var lengthDigits = 1
    while lengthDigits < 16, UInt64(length) >> (4 * UInt64(lengthDigits)) != 0 {
      lengthDigits += 1
    }
    return String(unsafeUninitializedCapacity: 19 + lengthDigits) { buffer in
      digits.withUTF8Buffer { hex in
        buffer[0] = UInt8(ascii: "\"")
        for place in 0..<16 {
          buffer[1 + place] = hex[Int(truncatingIfNeeded: hash >> (4 * UInt64(15 - place)) & 0xF)]
        }
        buffer[17] = UInt8(ascii: "-")
        for place in 0..<lengthDigits {
          let shift = 4 * UInt64(lengthDigits - 1 - place)
          buffer[18 + place] = hex[Int(truncatingIfNeeded: UInt64(length) >> shift & 0xF)]
        }
        buffer[18 + lengthDigits] = UInt8(ascii: "\"")
      }
      return 19 + lengthDigits
    }
  }

  /// A tag this process made earlier, from its header value.
  init(keptValue: String) {
    value = keptValue
  }

  static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

  /// One lane's step: the word is multiplied in, rotated, multiplied again.
  @inline(__always)
  static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let mixed = lane &+ word &* prime2
    return ((mixed << 31) | (mixed >> 33)) &* prime1
  }

  /// A 64-bit hash of `bytes`; every byte and its position count.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let count = bytes.count
    var lanes: (UInt64, UInt64, UInt64, UInt64) = (
      prime1 &+ prime2, prime2, 0, 0 &- prime1
    )
    var offset = 0
    while offset + 32 <= count {
      lanes.0 = round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      lanes.1 = round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
      lanes.2 = round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
      lanes.3 = round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
      offset += 32
    }
    var hash =
      lanes.0 ^ ((lanes.1 << 7) | (lanes.1 >> 57)) ^ ((lanes.2 << 12) | (lanes.2 >> 52))
      ^ ((lanes.3 << 18) | (lanes.3 >> 46))
    while offset + 8 <= count {
      hash = round(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    hash = round(hash, tail ^ UInt64(truncatingIfNeeded: count))
    // Final avalanche, so that nearby inputs give unrelated tags.
    hash ^= hash >> 33
    hash = hash &* prime2
    hash ^= hash >> 29
    hash = hash &* prime1
    hash ^= hash >> 32
    return hash
  }

  package var description: String { value }

  /// True when an `If-None-Match` value names this tag, so the answer is
  /// `304 Not Modified`.
  ///
  /// The value is a comma-separated list of quoted tags, each maybe weak
  /// (`W/"…"`), or `*`. As RFC 9110 requires for `If-None-Match`, the
  /// comparison is weak: `W/"x"` matches `"x"`, either way round (a page's
  /// gzipped form is tagged `W/"x"`: see `ResponseMemo.gzipped`). A malformed list matches
  /// nothing from the point where it stops making sense, so the full page is
  /// sent: a wrong `200` costs bytes, a wrong `304` shows a stale page.
  package func matches(ifNoneMatch header: String?) -> Bool {
    guard let header else { return false }
    var ours = Array(value.utf8)
    if ours.starts(with: [UInt8(ascii: "W"), UInt8(ascii: "/")]) { ours.removeFirst(2) }
    let text = Array(header.utf8)
    var index = 0
    while index < text.count {
      switch text[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","):
        index += 1
        continue
      case UInt8(ascii: "*"):
        return true
      default:
        break
      }
      if text[index] == UInt8(ascii: "W"), index + 1 < text.count,
        text[index + 1] == UInt8(ascii: "/")
      {
        index += 2
      }
      guard index < text.count, text[index] == UInt8(ascii: "\"") else { return false }
      guard let close = text[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
        return false
      }
      if text[index...close].elementsEqual(ours) { return true }
      index = close + 1
    }
    return false
  }
}
