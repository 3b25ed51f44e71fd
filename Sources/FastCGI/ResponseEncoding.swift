extension Response {
  /// The CGI-style response head that nginx turns into an HTTP status line
  /// and headers: `Status: 303 See Other\r\nLocation: /\r\n…\r\n\r\n`.
  ///
  /// Header names and values are sent as given, except that CR and LF are
  /// replaced by spaces so that a value can never start a header of its own.
  /// `Content-Length` is added (the body's length, also for `HEAD`) unless
  /// the status has no body (`204`, `304`) or the handler set one: with it,
  /// nginx passes the body through instead of re-framing it in chunks.
  public func encodedHead() -> [UInt8] {
    var head: [UInt8] = []
    head.reserveCapacity(64 + headers.count * 48)
    head.append(contentsOf: "Status: ".utf8)
    head.append(contentsOf: String(status).utf8)
    head.append(UInt8(ascii: " "))
    head.append(contentsOf: Self.reasonPhrase(for: status).utf8)
    head.append(contentsOf: [13, 10])
    for header in headers {
      Self.appendSanitised(header.name, to: &head)
      head.append(contentsOf: ": ".utf8)
      Self.appendSanitised(header.value, to: &head)
      head.append(contentsOf: [13, 10])
    }
    if status != 204, status != 304, header("Content-Length") == nil {
      head.append(contentsOf: "Content-Length: ".utf8)
      head.append(contentsOf: String(body.count).utf8)
      head.append(contentsOf: [13, 10])
    }
    head.append(contentsOf: [13, 10])
    return head
  }

  private static func appendSanitised(_ text: String, to bytes: inout [UInt8]) {
    let clean = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      // Rare: a line break, replaced by a space. Checked before copying, in
      // one pass over contiguous bytes (this runs for every header sent).
      guard !utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return false }
      bytes.append(contentsOf: utf8)
      return true
    }
    if clean == true { return }
    for byte in text.utf8 { bytes.append(byte == 13 || byte == 10 ? UInt8(ascii: " ") : byte) }
  }

  /// The standard reason phrase of the statuses the product sends.
  public static func reasonPhrase(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
