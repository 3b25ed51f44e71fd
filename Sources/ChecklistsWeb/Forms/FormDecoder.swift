import FastCGI

/// Decodes `application/x-www-form-urlencoded` bodies, the encoding every
/// HTML form of the product posts (and the enhancement script sends too).
///
/// It is stricter than a browser's own parser: a stray `%` or bytes that are
/// not UTF-8 are an error (`400`), never silently replaced, so what the model
/// stores is exactly what the visitor typed. Text rules (length, control
/// characters) belong to the model, not here.
package enum FormDecoder {
  /// The only media type accepted for a form body.
  package static let mediaType = "application/x-www-form-urlencoded"

  /// The product's largest form has 3 fields (`csrf`, `name`, `icon`);
  /// 100 leaves room for growth while a body of 10,000 `&` is refused early.
  package static let defaultFieldLimit = 100

  /// Checks the request's `Content-Type`, then decodes its body.
  ///
  /// - Throws: `FormError.unsupportedMediaType` when the body is not
  ///   urlencoded, or the errors of `decode(_:fieldLimit:)`.
  package static func decode(_ request: Request, fieldLimit: Int = defaultFieldLimit)
    throws(FormError) -> FormData
  {
    guard isURLEncoded(contentType: request.headerFields.value(of: .contentType)) else {
      throw .unsupportedMediaType
    }
    return try decode(request.body, fieldLimit: fieldLimit)
  }

  /// True when a `Content-Type` value names the urlencoded media type, in
  /// any letter case and with any parameters (`; charset=UTF-8`). A missing
  /// header is false: browsers always send one with a form.
  package static func isURLEncoded(contentType: String?) -> Bool {
    guard let contentType else { return false }
    // Without the copies `split` and `lowercased` make: every change asks this.
    let semicolon = contentType.utf8.firstIndex(of: UInt8(ascii: ";")) ?? contentType.endIndex
    let essence = contentType[..<semicolon].trimmingOptionalWhitespace()
    return essence.utf8.elementsEqual(mediaType.utf8) { byte, wanted in
      (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
    }
  }

  /// Decodes a urlencoded body into fields.
  ///
  /// `&`-separated pieces; an empty piece (`a=1&&b=2`, a trailing `&`) is
  /// skipped, a piece without `=` is a name with an empty value. In names and
  /// values `+` is a space and `%XX` a byte; the bytes must be UTF-8.
  ///
  /// - Throws: `FormError.tooManyFields` (checked before anything is
  ///   decoded), `.invalidPercentEscape` or `.invalidUTF8`.
  package static func decode(_ body: [UInt8], fieldLimit: Int = defaultFieldLimit)
    throws(FormError) -> FormData
  {
    guard countPieces(body, upTo: fieldLimit + 1) <= fieldLimit else {
      throw .tooManyFields(limit: fieldLimit)
    }
    let pieces = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
    var fields: [FormData.Field] = []
    fields.reserveCapacity(pieces.count)
    for piece in pieces {
      let name: ArraySlice<UInt8>
      let value: ArraySlice<UInt8>
      if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
        name = piece[piece.startIndex..<equals]
        value = piece[(equals + 1)...]
      } else {
        name = piece
        value = []
      }
      fields.append(
        FormData.Field(name: try decodeComponent(name), value: try decodeComponent(value)))
    }
    return FormData(fields: fields)
  }

  /// The number of non-empty `&`-separated pieces, counting no further
  /// than `limit` so a hostile body costs one pass and no allocation.
  static func countPieces(_ body: [UInt8], upTo limit: Int) -> Int {
    var count = 0
    var inPiece = false
    for byte in body {
      if byte == UInt8(ascii: "&") {
        inPiece = false
      } else if !inPiece {
        inPiece = true
        count += 1
        if count >= limit { return count }
      }
    }
    return count
  }

  /// Decodes one name or value: `+` to space, `%XX` to a byte, then UTF-8.
  static func decodeComponent(_ encoded: ArraySlice<UInt8>) throws(FormError) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(encoded.count)
    var index = encoded.startIndex
    while index < encoded.endIndex {
      let byte = encoded[index]
      switch byte {
      case UInt8(ascii: "+"):
        bytes.append(UInt8(ascii: " "))
        index += 1
      case UInt8(ascii: "%"):
        guard index + 2 < encoded.endIndex,
          let high = hexValue(encoded[index + 1]), let low = hexValue(encoded[index + 2])
        else { throw .invalidPercentEscape }
        bytes.append(high << 4 | low)
        index += 3
      default:
        bytes.append(byte)
        index += 1
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
    return text
  }

  /// The value of an ASCII hex digit, either case.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
