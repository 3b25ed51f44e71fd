import CQRencode
import Glibc

/// Every call into C of the module: libqrencode's `QRcode_*` and the C
/// library's `errno` it reports through. Debian's libqrencode is built with
/// pthreads (its one shared table is behind a mutex), so encoding from
/// several threads at once is safe.
enum LibQRencode {
  /// The symbol of `bytes` at error correction level M, in the smallest
  /// version they fit, as its side and its row-major modules (`true` is
  /// dark), copied out of the library's memory.
  ///
  /// The whole text goes in one 8-bit (byte) segment through
  /// `QRcode_encodeData`, not `QRcode_encodeString`'s automatic modes: a
  /// link's lower-case letters are outside the alphanumeric mode anyway, so
  /// splitting would save little, and byte mode hands a reader exactly the
  /// UTF-8 bytes given. `QRcode_encodeData` over `QRcode_encodeString8bit`
  /// because it takes a length, so the bytes are encoded as they are (a NUL
  /// would end a C string early) and Swift's buffer needs no terminator.
  ///
  /// - Parameter bytes: the text's UTF-8, not empty.
  static func symbol(of bytes: UnsafeBufferPointer<UInt8>)
    -> Result<(size: Int, modules: [Bool]), QRCodeError>
  {
    guard let start = bytes.baseAddress, let length = Int32(exactly: bytes.count) else {
      return .failure(.textTooLong(byteCount: bytes.count))
    }
    errno = 0
    guard let symbol = QRcode_encodeData(length, start, 0, QR_ECLEVEL_M) else {
      let code = errno
      return .failure(
        code == ERANGE ? .textTooLong(byteCount: bytes.count) : .encodingFailed(errno: code))
    }
    defer { QRcode_free(symbol) }
    let width = Int(symbol.pointee.width)
    // Bit 0 of each byte is the module's colour; the other bits say what
    // part of the symbol it belongs to.
    let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
    return .success((width, data.map { $0 & 1 == 1 }))
  }

  /// The C library's sentence for an `errno` value.
  static func describe(errno code: Int32) -> String {
    String(cString: strerror(code))
  }
}
