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

  @Test func serverPortIsTheListeningPortOrNil() {
    #expect(Request(parameters: ["SERVER_PORT": "8080"]).serverPort == 8080)
    #expect(Request(parameters: ["SERVER_PORT": "443"]).serverPort == 443)
    #expect(Request(parameters: [:]).serverPort == nil)
    for mangled in ["", "0", "65536", "+80", " 80", "80x", "123456", "-1"] {
      #expect(Request(parameters: ["SERVER_PORT": mangled]).serverPort == nil, "\(mangled)")
    }
  }
}

@Suite struct ResponseEncodingTests {
  @Test func headHasStatusHeadersInOrderAndBlankLine() {
    let response = Response(
      status: 303, headers: [("Location", "/lists"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
    #expect(
      String(decoding: response.encodedHead(), as: UTF8.self)
        == "Status: 303 See Other\r\nLocation: /lists\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"
    )
  }

  @Test func lineBreaksInValuesCannotStartAHeader() {
    let response = Response(status: 200, headers: [("X-Test", "a\r\nSet-Cookie: evil=1")])
    #expect(
      String(decoding: response.encodedHead(), as: UTF8.self)
        == "Status: 200 OK\r\nX-Test: a  Set-Cookie: evil=1\r\nContent-Length: 0\r\n\r\n")
  }

  @Test func lengthOfTheBodyUnlessTheStatusHasNoneOrTheHandlerSetIt() {
    let page = Response(
      status: 200, headers: [("Content-Type", "text/plain")], body: Array("héllo".utf8))
    #expect(
      String(decoding: page.encodedHead(), as: UTF8.self)
        == "Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n")
    let notModified = Response(status: 304, headers: [("ETag", "\"x\"")])
    #expect(
      String(decoding: notModified.encodedHead(), as: UTF8.self)
        == "Status: 304 Not Modified\r\nETag: \"x\"\r\n\r\n")
    let noContent = Response(status: 204)
    #expect(
      String(decoding: noContent.encodedHead(), as: UTF8.self) == "Status: 204 No Content\r\n\r\n")
    let given = Response(status: 200, headers: [("content-length", "3")], body: [1, 2, 3])
    #expect(
      String(decoding: given.encodedHead(), as: UTF8.self)
        == "Status: 200 OK\r\ncontent-length: 3\r\n\r\n")
  }

  @Test func lookupByNameFindsEveryValue() {
    let response = Response(headers: [("Set-Cookie", "a"), ("set-cookie", "b"), ("Location", "/")])
    #expect(response.headers(named: "SET-COOKIE") == ["a", "b"])
    #expect(response.header("location") == "/")
  }
}
