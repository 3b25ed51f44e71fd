import HTTPTypes

/// What a handler answers: a status, header fields (a name may repeat, as
/// `Set-Cookie` does) and the body bytes.
package struct Response: Sendable, Equatable {
  /// The status; the head is sent with its standard reason phrase.
  package var status: HTTPResponse.Status
  /// In the order they are sent; names as they should be sent.
  package var headerFields: HTTPFields
  package var body: [UInt8]

  package init(
    status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: [UInt8] = []
  ) {
    self.status = status
    self.headerFields = headerFields
    self.body = body
  }

  package init(head: HTTPResponse, body: [UInt8] = []) {
    self.init(status: head.status, headerFields: head.headerFields, body: body)
  }

  /// The status and the header fields.
  package var head: HTTPResponse {
    get { HTTPResponse(status: status, headerFields: headerFields) }
    set {
      status = newValue.status
      headerFields = newValue.headerFields
    }
  }
}
