import HTTPTypes

/// What a handler answers: a status, header fields (a name may repeat, as
/// `Set-Cookie` does) and the body bytes.
public struct Response: Sendable, Equatable {
  /// The status; the head is sent with its standard reason phrase.
  public var status: HTTPResponse.Status
  /// In the order they are sent; names as they should be sent.
  public var headerFields: HTTPFields
  public var body: [UInt8]

  public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: [UInt8] = [])
  {
    self.status = status
    self.headerFields = headerFields
    self.body = body
  }

  public init(head: HTTPResponse, body: [UInt8] = []) {
    self.init(status: head.status, headerFields: head.headerFields, body: body)
  }

  /// The status and the header fields.
  public var head: HTTPResponse {
    get { HTTPResponse(status: status, headerFields: headerFields) }
    set {
      status = newValue.status
      headerFields = newValue.headerFields
    }
  }
}
