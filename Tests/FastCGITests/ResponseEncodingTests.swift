import FastCGI
import HTTPTypes
import Testing

@Suite struct ResponseEncodingTests {
  private func head(_ response: Response) -> String {
    String(decoding: response.encodedHead(), as: UTF8.self)
  }

  @Test func headHasStatusHeadersInOrderAndBlankLine() {
    let response = Response(
      status: .seeOther,
      headerFields: [.location: "/lists", .setCookie: "a=1", .setCookie: "b=2"])
    #expect(
      head(response)
        == "Status: 303 See Other\r\nLocation: /lists\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"
    )
  }

  /// Every status the product sends goes out with its standard reason
  /// phrase (RFC 9110's; nginx passes the line on as it is).
  @Test(
    arguments: [
      (HTTPResponse.Status.ok, "200 OK"), (.seeOther, "303 See Other"),
      (.notModified, "304 Not Modified"), (.badRequest, "400 Bad Request"),
      (.forbidden, "403 Forbidden"), (.notFound, "404 Not Found"),
      (.methodNotAllowed, "405 Method Not Allowed"), (.contentTooLarge, "413 Content Too Large"),
      (.unsupportedMediaType, "415 Unsupported Media Type"),
      (.unprocessableContent, "422 Unprocessable Content"),
      (.tooManyRequests, "429 Too Many Requests"),
      (.internalServerError, "500 Internal Server Error"),
      (.serviceUnavailable, "503 Service Unavailable"),
    ])
  func everyStatusTheProductSendsHasItsStandardPhrase(
    status: HTTPResponse.Status, line: String
  ) {
    #expect(head(Response(status: status)).hasPrefix("Status: \(line)\r\n"))
    // A status made from its bare code (an integer literal) says the same.
    let bare = HTTPResponse.Status(code: status.code)
    #expect(bare.reasonPhrase.isEmpty)
    #expect(head(Response(status: bare)).hasPrefix("Status: \(line)\r\n"))
  }

  @Test func aCodeWithoutANamedStatusGoesOutAloneOrWithTheGivenPhrase() {
    #expect(head(Response(status: 299)).hasPrefix("Status: 299\r\n"))
    #expect(
      head(Response(status: .init(code: 299, reasonPhrase: "Odd"))).hasPrefix("Status: 299 Odd\r\n")
    )
    #expect(
      head(Response(status: .init(code: 404, reasonPhrase: "Gone Fishing")))
        .hasPrefix("Status: 404 Gone Fishing\r\n"))
  }

  /// A field cannot hold CR or LF (swift-http-types makes them spaces when
  /// the field is made), and the head is sanitised again as it is written:
  /// no value can start a header of its own.
  @Test func lineBreaksInValuesCannotStartAHeader() throws {
    let name = try #require(HTTPField.Name("X-Test"))
    let response = Response(status: .ok, headerFields: [name: "a\r\nSet-Cookie: evil=1"])
    #expect(
      head(response)
        == "Status: 200 OK\r\nX-Test: a  Set-Cookie: evil=1\r\nContent-Length: 0\r\n\r\n")
    let bytes = Response(
      status: .ok,
      headerFields: HTTPFields([HTTPField(name: name, lenientValue: Array("a\rb\nc".utf8))]))
    #expect(head(bytes) == "Status: 200 OK\r\nX-Test: a b c\r\nContent-Length: 0\r\n\r\n")
  }

  @Test func lengthOfTheBodyUnlessTheStatusHasNoneOrTheHandlerSetIt() throws {
    let page = Response(
      status: .ok, headerFields: [.contentType: "text/plain"], body: Array("héllo".utf8))
    #expect(head(page) == "Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n")
    let notModified = Response(status: .notModified, headerFields: [.eTag: "\"x\""])
    #expect(head(notModified) == "Status: 304 Not Modified\r\nETag: \"x\"\r\n\r\n")
    #expect(head(Response(status: .noContent)) == "Status: 204 No Content\r\n\r\n")
    let lowerCase = try #require(HTTPField.Name("content-length"))
    let given = Response(status: .ok, headerFields: [lowerCase: "3"], body: [1, 2, 3])
    #expect(head(given) == "Status: 200 OK\r\ncontent-length: 3\r\n\r\n")
    let error = Response(status: .notFound, body: Array("missing".utf8))
    #expect(head(error) == "Status: 404 Not Found\r\nContent-Length: 7\r\n\r\n")
  }

  @Test func lookupByNameFindsEveryValue() throws {
    let response = Response(headerFields: [
      .setCookie: "a", try #require(HTTPField.Name("set-cookie")): "b", .location: "/",
    ])
    #expect(
      response.headerFields[values: try #require(HTTPField.Name("SET-COOKIE"))] == ["a", "b"])
    #expect(response.headerFields[.location] == "/")
  }

  @Test func theHeadIsTheStatusAndTheFields() {
    var response = Response(status: .seeOther, headerFields: [.location: "/"])
    #expect(response.head == HTTPResponse(status: .seeOther, headerFields: [.location: "/"]))
    response.head = HTTPResponse(status: .notFound)
    #expect(response.status == .notFound && response.headerFields.isEmpty)
  }
}
