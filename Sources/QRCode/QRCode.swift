import CQRencode
import Glibc

/// A QR code symbol of a text, made by libqrencode: its modules as a grid of
/// dark and light squares, copied out of the library's result so that no C
/// memory outlives `init`.
///
/// Every `QRcode_*` call of the package is in this file. Debian's
/// libqrencode is built with pthreads (its one shared table is behind a
/// mutex), so encoding from several threads at once is safe.
package struct QRCode: Sendable, Equatable {
  /// The number of modules along each side (21 for version 1, 4 more per
  /// version, 177 for version 40).
  package let size: Int

  /// Row-major, `size × size`; `true` is a dark module.
  let modules: [Bool]

  /// Encodes the UTF-8 bytes of `text` at error correction level M (about
  /// 15 % of the symbol may be damaged or hidden and it still reads) in the
  /// smallest version they fit.
  ///
  /// The whole text goes in one 8-bit (byte) segment through
  /// `QRcode_encodeData`, not `QRcode_encodeString`'s automatic modes: a
  /// link's lower-case letters are outside the alphanumeric mode anyway, so
  /// splitting would save little, and byte mode hands a reader exactly the
  /// UTF-8 bytes given. `QRcode_encodeData` over `QRcode_encodeString8bit`
  /// because it takes a length, so the bytes are encoded as they are (a NUL
  /// would end a C string early) and Swift's buffer needs no terminator.
  ///
  /// - Throws: `QRCodeError.empty` for an empty text, `.textTooLong` when
  ///   the bytes exceed version 40's capacity (2,331 bytes at level M),
  ///   `.encodingFailed` with libqrencode's `errno` otherwise.
  package init(text: String) throws(QRCodeError) {
    var text = text
    let result: Result<QRCode, QRCodeError> = text.withUTF8 { bytes in
      guard let start = bytes.baseAddress, !bytes.isEmpty else { return .failure(.empty) }
      guard let length = Int32(exactly: bytes.count) else {
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
      return .success(QRCode(size: width, modules: data.map { $0 & 1 == 1 }))
    }
    self = try result.get()
  }

  private init(size: Int, modules: [Bool]) {
    self.size = size
    self.modules = modules
  }

  /// Whether the module at `row` (from the top) and `column` (from the
  /// left), both in `0..<size`, is dark.
  package func isDark(row: Int, column: Int) -> Bool {
    precondition(0..<size ~= row && 0..<size ~= column, "module (\(row), \(column)) is outside")
    return modules[row * size + column]
  }
}

/// Why a text has no QR code.
package enum QRCodeError: Error, Equatable, CustomStringConvertible {
  /// The text is empty.
  case empty
  /// The text's UTF-8 bytes do not fit in the largest symbol (version 40
  /// holds 2,331 bytes at error correction level M).
  case textTooLong(byteCount: Int)
  /// libqrencode failed for another reason (`ENOMEM`, `EINVAL`); its `errno`.
  case encodingFailed(errno: Int32)

  package var description: String {
    switch self {
    case .empty:
      "an empty text has no QR code"
    case .textTooLong(let byteCount):
      "the text is \(byteCount) bytes of UTF-8, more than a QR code holds "
        + "(2,331 bytes at error correction level M)"
    case .encodingFailed(let code):
      "libqrencode could not encode the text: \(String(cString: strerror(code))) (errno \(code))"
    }
  }
}
