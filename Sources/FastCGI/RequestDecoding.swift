extension Request {
  /// Builds a request from FastCGI parameters (`NAME=value` as nginx's
  /// `fastcgi_params` sends them) and a body already read.
  ///
  /// The path comes from `REQUEST_URI`, which nginx passes undecoded, so a
  /// router sees `%2e%2e` as typed rather than a normalised path.
  /// `HTTP_*` parameters become headers (`HTTP_SEC_FETCH_SITE` →
  /// `sec-fetch-site`); `CONTENT_TYPE` and `CONTENT_LENGTH` too.
  public init(parameters: [String: String], body: [UInt8] = [], bodyTooLarge: Bool = false) {
    let uri = parameters["REQUEST_URI"] ?? parameters["DOCUMENT_URI"] ?? "/"
    let path: Substring
    let query: Substring
    if let mark = uri.firstIndex(of: "?") {
      path = uri[..<mark]
      query = uri[uri.index(after: mark)...]
    } else {
      path = Substring(uri)
      query = Substring(parameters["QUERY_STRING"] ?? "")
    }
    var headers: [String: String] = [:]
    headers.reserveCapacity(parameters.count)
    for (name, value) in parameters {
      if name.hasPrefix("HTTP_") {
        headers[Self.headerName(fromParameter: name.dropFirst(5))] = value
      } else if name == "CONTENT_TYPE" || name == "CONTENT_LENGTH" {
        if !value.isEmpty { headers[Self.headerName(fromParameter: Substring(name))] = value }
      }
    }
    self.init(
      method: parameters["REQUEST_METHOD"] ?? "GET",
      path: String(path),
      query: String(query),
      headers: headers,
      isHTTPS: (parameters["HTTPS"] ?? "").lowercased() == "on",
      serverPort: parameters["SERVER_PORT"].flatMap(Self.port(_:)),
      remoteAddress: parameters["REMOTE_ADDR"] ?? "",
      body: body,
      bodyTooLarge: bodyTooLarge
    )
  }

  /// A `SERVER_PORT` of 1 to 5 decimal digits in 1...65535; nil for
  /// anything else, so a mangled parameter can only make the origin check
  /// stricter, never match a port it does not name.
  static func port(_ text: String) -> Int? {
    guard (1...5).contains(text.utf8.count),
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let port = Int(text), (1...65535).contains(port)
    else { return nil }
    return port
  }

  /// `SEC_FETCH_SITE` → `sec-fetch-site`.
  static func headerName(fromParameter name: Substring) -> String {
    String(
      decoding: name.utf8.map { byte -> UInt8 in
        switch byte {
        case UInt8(ascii: "_"): UInt8(ascii: "-")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        default: byte
        }
      }, as: UTF8.self)
  }
}
