import FastCGI
import HTTPTypes
import Testing

/// The look-ups on every request's path answer as swift-http-types' own.
@Suite struct HTTPFieldsLookupTests {
  static let names: [HTTPField.Name] = [
    .cookie, .setCookie, .eTag, .contentType, .contentLength, .location, .cacheControl, .accept,
    HTTPField.Name("X-Long-Name-Of-The-Same-Length-As-None")!, HTTPField.Name("cOoKiE")!,
  ]

  static let fieldSets: [HTTPFields] = [
    [:],
    [.contentType: "text/html", .eTag: "\"x\""],
    [.setCookie: "a=1", .location: "/", .setCookie: "b=2", HTTPField.Name("set-cookie")!: "c=3"],
    [.cookie: "a=1", .accept: "*/*", HTTPField.Name("COOKIE")!: "b=2", .cacheControl: ""],
    [.contentLength: "3", HTTPField.Name("content-lengtx")!: "4", .accept: "a", .accept: "b"],
  ]

  @Test(arguments: fieldSets)
  func valueAndPresenceAreTheLibrarys(fields: HTTPFields) {
    for name in Self.names {
      #expect(fields.value(of: name) == fields[name], "\(name)")
      #expect(fields.hasField(name) == fields.contains(name), "\(name)")
    }
  }

  @Test func namesAreTheSameFieldWhateverTheirCase() {
    #expect(HTTPField.Name("Set-Cookie")!.isSameField(as: .setCookie))
    #expect(!HTTPField.Name("Set-Cookies")!.isSameField(as: .setCookie))
    #expect(!HTTPField.Name("set-cookiE")!.isSameField(as: .cookie))
    #expect(!HTTPField.Name("content-lengtx")!.isSameField(as: .contentLength))
  }
}
