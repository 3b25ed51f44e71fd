import Testing

@testable import FastCGI

@Test func headerLookupIsCaseInsensitive() {
  let request = Request(method: "GET", path: "/", headers: ["cookie": "a=1"])
  #expect(request.header("Cookie") == "a=1")
  #expect(request.header("Origin") == nil)
}
