import HTTPTypes

extension Response {
  /// The CGI-style response head that nginx turns into an HTTP status line
  /// and headers: `Status: 303 See Other\r\nLocation: /\r\n…\r\n\r\n`.
  ///
  /// The status goes out with its standard reason phrase (see
  /// `reasonPhrase`). Header names and values are sent as given, except
  /// that CR and LF are replaced by spaces so that a value can never start a
  /// header of its own. `Content-Length` is added (the body's length, also
  /// for `HEAD`) unless the status has no body (`204`, `304`) or the handler
  /// set one: with it, nginx passes the body through instead of re-framing
  /// it in chunks.
  package func encodedHead() -> [UInt8] {
    var head: [UInt8] = []
    // A page's fields take ~65 bytes each (its security policy alone 180):
    // room for all of them, so that the buffer is not copied as it grows.
    head.reserveCapacity(64 + headerFields.count * 80)
    Self.append("Status: ", to: &head)
    Self.append(String(status.code), to: &head)
    let phrase = Self.reasonPhrase(of: status)
    if !phrase.isEmpty {
      head.append(UInt8(ascii: " "))
      Self.append(phrase, to: &head)
    }
    Self.endLine(&head)
    for field in headerFields {
      // A name is an HTTP token: it holds no line break.
      Self.append(field.name.rawName, to: &head)
      head.append(UInt8(ascii: ":"))
      head.append(UInt8(ascii: " "))
      Self.appendSanitised(field.value, to: &head)
      Self.endLine(&head)
    }
    if status != .noContent, status != .notModified, !headerFields.hasField(.contentLength) {
      Self.append("Content-Length: ", to: &head)
      Self.append(String(body.count), to: &head)
      Self.endLine(&head)
    }
    Self.endLine(&head)
    return head
  }

  /// Appends `text`'s bytes, copied at once from its storage.
  private static func append(_ text: String, to bytes: inout [UInt8]) {
    let copied = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: text.utf8) }
  }

  private static func endLine(_ bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\r"))
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Appends `text`, any CR or LF in it replaced by a space. A field's
  /// value holds none (swift-http-types replaces them when the field is
  /// made); this keeps the head safe whatever a field was made from.
  private static func appendSanitised(_ text: String, to bytes: inout [UInt8]) {
    let clean = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      // Rare: a line break, replaced by a space. Checked before copying, in
      // one pass over contiguous bytes (this runs for every header sent).
      guard !utf8.contains(where: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") })
      else { return false }
      bytes.append(contentsOf: utf8)
      return true
    }
    if clean == true { return }
    for byte in text.utf8 {
      bytes.append(
        byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") ? UInt8(ascii: " ") : byte)
    }
  }

  /// The reason phrase a status goes out with: its own, or, for a status
  /// made from a bare code (an integer literal has none), the standard one
  /// of swift-http-types' named status of that code. Empty for a code that
  /// has no named status: nginx then sends the code alone.
  package static func reasonPhrase(of status: HTTPResponse.Status) -> String {
    if !status.reasonPhrase.isEmpty { return status.reasonPhrase }
    return standardStatuses[status.code]?.reasonPhrase ?? ""
  }

  /// swift-http-types' named statuses, by code.
  private static let standardStatuses: [Int: HTTPResponse.Status] = {
    let named: [HTTPResponse.Status] = [
      .continue, .switchingProtocols, .earlyHints,
      .ok, .created, .accepted, .nonAuthoritativeInformation, .noContent, .resetContent,
      .partialContent,
      .multipleChoices, .movedPermanently, .found, .seeOther, .notModified, .temporaryRedirect,
      .permanentRedirect,
      .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .notAcceptable,
      .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone, .lengthRequired,
      .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType,
      .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest, .unprocessableContent,
      .tooEarly, .upgradeRequired, .preconditionRequired, .tooManyRequests,
      .requestHeaderFieldsTooLarge, .unavailableForLegalReasons,
      .internalServerError, .notImplemented, .badGateway, .serviceUnavailable, .gatewayTimeout,
      .httpVersionNotSupported, .networkAuthenticationRequired,
    ]
    return Dictionary(named.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
  }()
}
