import Testing

@testable import FastCGI

@Suite struct RequestDecodingTests {
  @Test func headerLookupIsCaseInsensitive() {
    let request = Request(method: "GET", path: "/", headers: ["cookie": "a=1"])
    #expect(request.header("Cookie") == "a=1")
    #expect(request.header("Origin") == nil)
  }

  @Test func pathComesUndecodedFromRequestURIAndQueryIsSplit() {
    let request = Request(parameters: [
      "REQUEST_METHOD": "GET", "REQUEST_URI": "/lists/%2e%2e?a=b?c", "DOCUMENT_URI": "/",
    ])
    #expect(request.path == "/lists/%2e%2e")
    #expect(request.query == "a=b?c")
  }

  @Test func httpParametersBecomeLowerCaseHeaders() {
    let request = Request(parameters: [
      "REQUEST_URI": "/", "HTTP_SEC_FETCH_SITE": "cross-site", "HTTP_X_A_B": "1",
      "CONTENT_TYPE": "text/plain",
      "CONTENT_LENGTH": "", "SERVER_NAME": "x",
    ])
    #expect(
      request.headers == [
        "sec-fetch-site": "cross-site", "x-a-b": "1", "content-type": "text/plain",
      ])
  }

  @Test func httpsAndRemoteAddress() {
    #expect(Request(parameters: ["HTTPS": "on", "REMOTE_ADDR": "::1"]).isHTTPS)
    #expect(Request(parameters: ["HTTPS": "on", "REMOTE_ADDR": "::1"]).remoteAddress == "::1")
    #expect(!Request(parameters: [:]).isHTTPS)
    #expect(Request(parameters: [:]).method == "GET")
    #expect(Request(parameters: [:]).path == "/")
  }
}

@Suite struct ResponseEncodingTests {
  @Test func headHasStatusHeadersInOrderAndBlankLine() {
    let response = Response(
      status: 303, headers: [("Location", "/lists"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
    #expect(
      String(decoding: response.encodedHead(), as: UTF8.self)
        == "Status: 303 See Other\r\nLocation: /lists\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n"
    )
  }

  @Test func lineBreaksInValuesCannotStartAHeader() {
    let response = Response(status: 200, headers: [("X-Test", "a\r\nSet-Cookie: evil=1")])
    #expect(
      String(decoding: response.encodedHead(), as: UTF8.self)
        == "Status: 200 OK\r\nX-Test: a  Set-Cookie: evil=1\r\n\r\n")
  }

  @Test func lookupByNameFindsEveryValue() {
    let response = Response(headers: [("Set-Cookie", "a"), ("set-cookie", "b"), ("Location", "/")])
    #expect(response.headers(named: "SET-COOKIE") == ["a", "b"])
    #expect(response.header("location") == "/")
  }
}
