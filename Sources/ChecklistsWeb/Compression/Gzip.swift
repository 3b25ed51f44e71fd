import CZlib

/// gzip (RFC 1952) through zlib: every `deflate` and `inflate` call of the
/// product is here.
///
/// The output is a function of the input and the level alone: zlib's gzip
/// wrapper writes no file name and a modification time of 0, so a file
/// written at `generate` is the same bytes on every machine and every run,
/// and a kept page's compressed form is the same each time it is made.
package enum Gzip {
  /// What a file written once and served many times is compressed at
  /// (`generate`'s static files, the memo's kept pages): made once, so the
  /// slowest level costs nothing that matters.
  package static let smallest: Int32 = 9

  /// What an answer compressed for one request is compressed at
  /// (`GzipStage`). Measured on a 20-item list page (7.1 KB) and the
  /// Settings page (18.9 KB), zlib's CPU time: level 1 21 µs and 57 µs
  /// (1,327 and 5,020 bytes), level 6 36 µs and 129 µs (1,240 and 4,627),
  /// level 9 39 µs and 306 µs (1,240 and 4,455).
  package static let fastest: Int32 = 1

  /// `bytes` compressed into a gzip member at `level` (1 fastest, 9 smallest).
  ///
  /// The window is the smallest power of two that holds the input (at
  /// least 512 bytes, at most zlib's 32 KiB), and the hash table shrinks
  /// with it (`memLevel` one less for each halving, as nginx's gzip filter
  /// does): about the same compression for a page of a few kilobytes, and
  /// 64 KiB for zlib to set up instead of 256 KiB. With the full sizes each
  /// call's tables were above malloc's threshold for `mmap`, so every page
  /// mapped, zero-filled and unmapped them: compressing a computed 7.7 KB
  /// list page cost the backend ~57 µs through nginx, against ~30 µs for
  /// nginx's own `gzip_comp_level 1` on it.
  package static func compress(_ bytes: [UInt8], level: Int32 = smallest) -> [UInt8] {
    var stream = z_stream()
    let window = windowBits(for: bytes.count)
    let status = deflateInit2_(
      &stream, level, Z_DEFLATED, 16 + window, max(1, 8 - (15 - window)), Z_DEFAULT_STRATEGY,
      ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    // Only a wrong argument or no memory fail here: neither can be answered.
    precondition(status == Z_OK, "deflateInit2 failed: \(status)")
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, UInt(bytes.count)))
    var output = [UInt8](repeating: 0, count: bound)
    let written = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out -> Int in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = UInt32(out.count)
        // deflateBound is room enough for one call to finish the member.
        let result = deflate(&stream, Z_FINISH)
        precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
        return out.count - Int(stream.avail_out)
      }
    }
    // A copy of the exact size: the memo keeps it, and deflateBound's
    // room is the size of the input (7 KB held for a page's 1.3 KB).
    return Array(unsafeUninitializedCapacity: written) { copy, count in
      _ = copy.initialize(from: output[..<written])
      count = written
    }
  }

  /// The bytes of one gzip member, nil when `bytes` is not one (damaged,
  /// cut short, followed by anything) or holds more than `limit` bytes.
  package static func decompress(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      while true {
        let (result, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
          stream.next_out = out.baseAddress
          stream.avail_out = UInt32(out.count)
          let result = inflate(&stream, Z_NO_FLUSH)
          return (result, out.count - Int(stream.avail_out))
        }
        output.append(contentsOf: chunk[..<produced])
        guard output.count <= limit else { return nil }
        switch result {
        case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
        case Z_OK: continue
        default: return nil  // damaged, or cut short (Z_BUF_ERROR: no input left)
        }
      }
    }
  }

  /// zlib's `windowBits` for `count` bytes of input: log2 of the smallest
  /// window from 512 bytes to 32 KiB that holds them (deflate reaches back
  /// at most the window less 262 bytes).
  static func windowBits(for count: Int) -> Int32 {
    var bits: Int32 = 9
    while bits < 15, 1 << bits < count + 262 { bits += 1 }
    return bits
  }
}
