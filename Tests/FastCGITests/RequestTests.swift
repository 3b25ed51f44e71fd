import FastCGI
import HTTPTypes
import Testing

@Suite struct RequestDecodingTests {
  @Test func headerLookupIsCaseInsensitive() throws {
    let request = Request(
      method: .get, path: "/", headerFields: [try #require(HTTPField.Name("cookie")): "a=1"])
    #expect(request.headerFields[.cookie] == "a=1")
    #expect(request.headerFields[try #require(HTTPField.Name("COOKIE"))] == "a=1")
    #expect(request.headerFields[.origin] == nil)
  }

  @Test func pathComesUndecodedFromRequestURIAndQueryIsSplit() {
    let request = Request(parameters: [
      "REQUEST_METHOD": "GET", "REQUEST_URI": "/lists/%2e%2e?a=b?c", "DOCUMENT_URI": "/",
    ])
    #expect(request.head.path == "/lists/%2e%2e?a=b?c")
    #expect(request.path == "/lists/%2e%2e")
    #expect(request.query == "a=b?c")
  }

  @Test func withoutARequestURIThePathIsTheDocumentURIAndTheQueryTheQueryString() {
    let request = Request(parameters: ["DOCUMENT_URI": "/lists", "QUERY_STRING": "saved"])
    #expect(request.path == "/lists")
    #expect(request.query == "saved")
    let bare = Request(parameters: ["REQUEST_URI": "/lists?", "QUERY_STRING": "ignored"])
    #expect(bare.path == "/lists")
    #expect(bare.query == "")
  }

  /// The router matches the target as it came: nothing in it is decoded,
  /// trimmed or normalised, and only the bytes no field may hold (NUL, CR,
  /// LF) become spaces, so such a path still names nothing.
  @Test func theTargetIsKeptAsSent() {
    for target in ["/lists/%2F1", "//lists", "/lists/ 1", "/lists/1/", "/l%C3%A4"] {
      #expect(Request(parameters: ["REQUEST_URI": target]).path == target)
    }
    #expect(Request(parameters: ["REQUEST_URI": "/lists\u{0}"]).path == "/lists ")
  }

  @Test func httpParametersBecomeHeaderFields() throws {
    let request = Request(parameters: [
      "REQUEST_URI": "/", "HTTP_SEC_FETCH_SITE": "cross-site", "HTTP_X_A_B": "1",
      "HTTP_COOKIE": "a=1; b=2", "CONTENT_TYPE": "text/plain",
      "CONTENT_LENGTH": "", "SERVER_NAME": "x",
    ])
    var names = request.headerFields.map(\.name.canonicalName)
    names.sort()
    #expect(names == ["content-type", "cookie", "sec-fetch-site", "x-a-b"])
    #expect(request.headerFields[try #require(HTTPField.Name("Sec-Fetch-Site"))] == "cross-site")
    #expect(request.headerFields[try #require(HTTPField.Name("x-a-b"))] == "1")
    #expect(request.headerFields[.cookie] == "a=1; b=2")
    #expect(request.headerFields[.contentType] == "text/plain")
    #expect(request.headerFields[.contentLength] == nil, "an empty CONTENT_LENGTH is no header")
  }

  /// nginx sends the body's type and length twice, as `CONTENT_TYPE` and as
  /// the header `HTTP_CONTENT_TYPE`: they make one field each, the CGI
  /// parameter's unless it is empty.
  @Test func theBodysTypeAndLengthAreOneFieldEach() {
    let both = Request(parameters: [
      "CONTENT_TYPE": "application/x-www-form-urlencoded",
      "HTTP_CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": "12",
      "HTTP_CONTENT_LENGTH": "12",
    ])
    #expect(both.headerFields.count == 2)
    #expect(both.headerFields[.contentType] == "application/x-www-form-urlencoded")
    #expect(both.headerFields[.contentLength] == "12")
    let emptyCGI = Request(parameters: ["CONTENT_TYPE": "", "HTTP_CONTENT_TYPE": ""])
    #expect(emptyCGI.headerFields[values: .contentType] == [""], "an empty header is still sent")
    let headerOnly = Request(parameters: ["HTTP_CONTENT_TYPE": "text/plain"])
    #expect(headerOnly.headerFields[values: .contentType] == ["text/plain"])
    let cgiFirst = Request(parameters: ["CONTENT_TYPE": "text/plain", "HTTP_CONTENT_TYPE": "x/y"])
    #expect(cgiFirst.headerFields[values: .contentType] == ["text/plain"])
  }

  /// swift-http-types keeps an HTTP/1.1 request's `Host` as its authority.
  @Test func theHostBecomesTheAuthority() {
    let request = Request(parameters: ["REQUEST_URI": "/", "HTTP_HOST": "checklists.example:8080"])
    #expect(request.head.authority == "checklists.example:8080")
    #expect(request.headerFields.isEmpty)
    #expect(Request(parameters: ["REQUEST_URI": "/"]).head.authority == nil)
  }

  /// A value is passed on as nginx sent it: spaces at its ends or control
  /// characters are not trimmed or replaced (they make a cookie or an
  /// origin malformed, as they should); only NUL, CR and LF become spaces.
  @Test func headerValuesAreKeptAsSent() {
    let request = Request(parameters: [
      "HTTP_ORIGIN": "https://a.example\u{1}", "HTTP_COOKIE": " visitor=1 ",
      "HTTP_X_NUL": "a\u{0}b",
    ])
    #expect(request.headerFields[.origin] == "https://a.example\u{1}")
    #expect(request.headerFields[.cookie] == " visitor=1 ")
    #expect(request.headerFields.first { $0.name.canonicalName == "x-nul" }?.value == "a b")
  }

  /// Parameters that are not header names, or names that are not HTTP
  /// tokens, bring no field.
  @Test func onlyTokenNamesBecomeFields() {
    let request = Request(parameters: ["HTTP_": "x", "HTTP_A(B": "y", "REQUEST_METHOD": "GET"])
    #expect(request.headerFields.isEmpty)
  }

  @Test func methodsAsSentAndGetWhenMissing() {
    #expect(Request(parameters: [:]).method == .get)
    #expect(Request(parameters: ["REQUEST_METHOD": "HEAD"]).method == .head)
    #expect(Request(parameters: ["REQUEST_METHOD": "POST"]).method == .post)
    #expect(Request(parameters: ["REQUEST_METHOD": "PATCH"]).method == .patch)
    #expect(Request(parameters: ["REQUEST_METHOD": "get"]).method.rawValue == "get")
    for mangled in ["", "G ET", "GET\r\n"] {
      let method = Request(parameters: ["REQUEST_METHOD": mangled]).method
      #expect(method == Request.unknownMethod, "\(mangled)")
      #expect(![.get, .head, .post].contains(method))
    }
  }

  @Test func httpsAndRemoteAddress() {
    #expect(Request(parameters: ["HTTPS": "on", "REMOTE_ADDR": "::1"]).isHTTPS)
    #expect(Request(parameters: ["HTTPS": "ON"]).isHTTPS)
    #expect(Request(parameters: ["HTTPS": "on", "REMOTE_ADDR": "::1"]).remoteAddress == "::1")
    #expect(!Request(parameters: [:]).isHTTPS)
    #expect(Request(parameters: [:]).path == "/")
  }

  @Test func serverPortIsTheListeningPortOrNil() {
    #expect(Request(parameters: ["SERVER_PORT": "8080"]).serverPort == 8080)
    #expect(Request(parameters: ["SERVER_PORT": "443"]).serverPort == 443)
    #expect(Request(parameters: [:]).serverPort == nil)
    for mangled in ["", "0", "65536", "+80", " 80", "80x", "123456", "-1"] {
      #expect(Request(parameters: ["SERVER_PORT": mangled]).serverPort == nil, "\(mangled)")
    }
  }

  /// Every header name a browser commonly sends is found by its parameter
  /// name without building a name.
  @Test func knownParameterNamesMapToTheirFieldNames() {
    for (parameter, name) in Request.knownFieldNames {
      #expect(Request.headerName(fromParameter: parameter.dropFirst(5)) == name.canonicalName)
    }
    #expect(Request.knownFieldNames["HTTP_SEC_FETCH_SITE"]?.canonicalName == "sec-fetch-site")
    #expect(Request.knownFieldNames["HTTP_COOKIE"] == .cookie)
  }

  @Test func convenienceInitialiserJoinsPathAndQuery() {
    let request = Request(method: .post, path: "/lists/3", query: "x=1", authority: "a.example")
    #expect(request.head.path == "/lists/3?x=1")
    #expect(request.path == "/lists/3" && request.query == "x=1")
    #expect(request.head.authority == "a.example")
    #expect(Request(method: .get, path: "/lists").head.path == "/lists")
  }
}
