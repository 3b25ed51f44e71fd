/// A QR code symbol of a text, made by libqrencode: its modules as a grid of
/// dark and light squares, copied out of the library's result so that no C
/// memory outlives `init`.
///
/// Every call into C is in `Internals/LibQRencode.swift`.
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
  /// The whole text goes in one 8-bit (byte) segment (see `LibQRencode`).
  ///
  /// - Throws: `QRCodeError.empty` for an empty text, `.textTooLong` when
  ///   the bytes exceed version 40's capacity (2,331 bytes at level M),
  ///   `.encodingFailed` with libqrencode's `errno` otherwise.
  package init(text: String) throws(QRCodeError) {
    var text = text
    let result: Result<QRCode, QRCodeError> = text.withUTF8 { bytes in
      guard !bytes.isEmpty else { return .failure(.empty) }
      return LibQRencode.symbol(of: bytes).map { QRCode(size: $0.size, modules: $0.modules) }
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
      "libqrencode could not encode the text: \(LibQRencode.describe(errno: code)) (errno \(code))"
    }
  }
}
