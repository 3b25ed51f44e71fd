import FastCGI
import HTTPTypes

/// The kinds of answer the product gives, made in one place (the error
/// page is `PageRenderer`'s).
extension Response {
  /// A `text/html` page, with `headerFields` after its `Content-Type`.
  static func html(
    _ body: [UInt8], status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:]
  ) -> Response {
    Response(
      status: status, headerFields: fields(htmlContentType, then: headerFields), body: body)
  }

  /// A `text/plain` answer, with `headerFields` after its `Content-Type`.
  static func plainText(
    _ body: [UInt8], status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:]
  ) -> Response {
    Response(
      status: status, headerFields: fields(plainTextContentType, then: headerFields), body: body)
  }

  /// A rendered page with its tag.
  static func page(_ body: [UInt8], etag: ETag) -> Response {
    html(body, headerFields: [.eTag: etag.value])
  }

  /// `first`, then `others`, with room for the fields every page gets
  /// after them (`SecurityHeaders`, a few `Set-Cookie`), so that adding
  /// those does not grow the storage again.
  private static func fields(_ first: HTTPField, then others: HTTPFields) -> HTTPFields {
    var fields = HTTPFields()
    fields.reserveCapacity(1 + others.count + SecurityHeaders.perVisitorPage.count + 3)
    fields.append(first)
    for field in others { fields.append(field) }
    return fields
  }

  /// `303 See Other` to `location`: the answer to every change
  /// (Post/Redirect/Get), and the landing rule's way into a list.
  static func redirect(to location: String) -> Response {
    Response(
      status: .seeOther,
      headerFields: HTTPFields([HTTPField(name: .location, value: location), plainTextContentType]),
      body: Array("See \(location)\n".utf8))
  }

  static let htmlContentType = HTTPField(name: .contentType, value: "text/html; charset=utf-8")
  static let plainTextContentType = HTTPField(
    name: .contentType, value: "text/plain; charset=utf-8")
}
