import HTTPTypes

extension Request {
  /// Builds a request from FastCGI parameters (`NAME=value` as nginx's
  /// `fastcgi_params` sends them) and a body already read.
  ///
  /// The target comes from `REQUEST_URI`, which nginx passes undecoded, so a
  /// router sees `%2e%2e` as typed rather than a normalised path.
  /// `HTTP_*` parameters become header fields (`HTTP_SEC_FETCH_SITE` →
  /// `sec-fetch-site`). `Content-Type` and `Content-Length` come from
  /// `CONTENT_TYPE` and `CONTENT_LENGTH` when they are not empty, else from
  /// the `HTTP_` parameter of the same header, which nginx sends too: one
  /// field each. `HTTP_HOST` becomes the authority, where swift-http-types
  /// keeps the `Host` of an HTTP/1.1 request.
  package init(parameters: [String: String], body: [UInt8] = [], bodyTooLarge: Bool = false) {
    var target = parameters["REQUEST_URI"] ?? parameters["DOCUMENT_URI"] ?? "/"
    if !target.utf8.contains(UInt8(ascii: "?")), let query = parameters["QUERY_STRING"],
      !query.isEmpty
    {
      target += "?" + query
    }
    var fields = HTTPFields()
    fields.reserveCapacity(parameters.count)
    for (name, value) in parameters {
      guard let field = Self.headerField(parameter: name, value: value) else { continue }
      fields.append(field)
    }
    for (name, cgiName, headerName) in Self.contentFields {
      guard
        let value = parameters[cgiName].flatMap({ $0.isEmpty ? nil : $0 }) ?? parameters[headerName]
      else { continue }
      fields.append(Self.field(name, keeping: value))
    }
    var head = HTTPRequest(
      method: Self.method(parameters["REQUEST_METHOD"]), scheme: nil, authority: nil, path: nil,
      headerFields: fields)
    head.pseudoHeaderFields.path = Self.field(Self.targetName, keeping: target)
    head.pseudoHeaderFields.authority = parameters["HTTP_HOST"].map {
      Self.field(Self.authorityName, keeping: $0)
    }
    self.init(
      head: head,
      isHTTPS: (parameters["HTTPS"] ?? "").lowercased() == "on",
      serverPort: parameters["SERVER_PORT"].flatMap(Self.port(_:)),
      remoteAddress: parameters["REMOTE_ADDR"] ?? "",
      body: body,
      bodyTooLarge: bodyTooLarge
    )
  }

  /// `:path`, the pseudo-field that holds the target.
  private static let targetName = HTTPField.Name(parsed: ":path")!
  /// `:authority`, the pseudo-field that holds the `Host`.
  private static let authorityName = HTTPField.Name(parsed: ":authority")!

  /// The method of `REQUEST_METHOD`; `GET` when nginx sent none. A value
  /// that is no HTTP token (nginx never sends one) becomes `unknownMethod`,
  /// which, like any method the product does not route, is refused.
  static func method(_ text: String?) -> HTTPRequest.Method {
    switch text {
    case nil, "GET": .get
    case "HEAD": .head
    case "POST": .post
    case let text?: HTTPRequest.Method(text) ?? unknownMethod
    }
  }

  /// The method of a request whose `REQUEST_METHOD` is not an HTTP token.
  package static let unknownMethod = HTTPRequest.Method("UNKNOWN-METHOD")!

  /// The fields of the body's type and length: their names, and the CGI
  /// and `HTTP_` parameters that carry them.
  static let contentFields: [(HTTPField.Name, String, String)] = [
    (.contentType, "CONTENT_TYPE", "HTTP_CONTENT_TYPE"),
    (.contentLength, "CONTENT_LENGTH", "HTTP_CONTENT_LENGTH"),
  ]

  /// The header field an `HTTP_*` parameter carries, or nil for any other
  /// parameter, for `HTTP_HOST` (the authority) and the body's type and
  /// length (see `contentFields`), and for a name that is not an HTTP token.
  static func headerField(parameter name: String, value: String) -> HTTPField? {
    guard isHeaderParameter(name) else { return nil }
    if let known = knownFieldNames[name] { return field(known, keeping: value) }
    guard name != "HTTP_HOST", name != "HTTP_CONTENT_TYPE", name != "HTTP_CONTENT_LENGTH",
      let built = HTTPField.Name(headerName(fromParameter: name.dropFirst(5)))
    else { return nil }
    return field(built, keeping: value)
  }

  /// Whether a parameter name starts with `HTTP_`, looked at byte by byte
  /// (`hasPrefix` and `starts(with:)` were a tenth of the decoding).
  static func isHeaderParameter(_ name: String) -> Bool {
    var bytes = name.utf8.makeIterator()
    return bytes.next() == UInt8(ascii: "H") && bytes.next() == UInt8(ascii: "T")
      && bytes.next() == UInt8(ascii: "T") && bytes.next() == UInt8(ascii: "P")
      && bytes.next() == UInt8(ascii: "_")
  }

  /// A field with `value` as sent; only NUL, CR and LF, which no field
  /// value may hold, become spaces. A valid value (all that nginx sends) is
  /// checked once and kept without a copy.
  static func field(_ name: HTTPField.Name, keeping value: String) -> HTTPField {
    let field = HTTPField(name: name, value: value)
    // Equal at once when the field kept `value` itself (it was valid).
    if field.value == value { return field }
    return HTTPField(name: name, lenientValue: value.utf8)
  }

  /// The field names of the headers browsers send, by parameter name, made
  /// once: most requests build no name at all.
  package static let knownFieldNames: [String: HTTPField.Name] = {
    let standard: [HTTPField.Name] = [
      .cookie, .userAgent, .accept, .acceptLanguage, .acceptEncoding, .connection,
      .origin, .referer, .ifNoneMatch, .ifModifiedSince, .cacheControl, .priority, .te,
      .upgrade,
    ]
    let others = [
      "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user", "dnt",
      "upgrade-insecure-requests", "pragma", "x-forwarded-for", "x-forwarded-proto",
    ].compactMap { HTTPField.Name($0) }
    var names: [String: HTTPField.Name] = [:]
    for name in standard + others { names[parameterName(of: name)] = name }
    return names
  }()

  /// `sec-fetch-site` → `HTTP_SEC_FETCH_SITE`, as nginx names the parameter.
  static func parameterName(of name: HTTPField.Name) -> String {
    "HTTP_"
      + String(
        decoding: name.canonicalName.utf8.map { byte -> UInt8 in
          switch byte {
          case UInt8(ascii: "-"): UInt8(ascii: "_")
          case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
          default: byte
          }
        }, as: UTF8.self)
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
  package static func headerName(fromParameter name: Substring) -> String {
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
