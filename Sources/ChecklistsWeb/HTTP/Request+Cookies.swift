import FastCGI

extension Request {
  /// The request's cookies, parsed from its `Cookie` field.
  package var cookies: Cookies { Cookies(header: headerFields.value(of: .cookie)) }
}
