import HTTPTypes

extension HTTPField.Name {
  /// `Sec-Fetch-Site`: the browser's own word on where a request came from.
  package static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

  /// `Referrer-Policy`.
  package static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

  /// `X-Robots-Tag`: what a search engine may do with a response.
  package static let xRobotsTag = HTTPField.Name("X-Robots-Tag")!
}
