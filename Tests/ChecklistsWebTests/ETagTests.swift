import FastCGI
import Testing

@testable import ChecklistsWeb

@Suite struct ETagTests {
  let tag = ETag(body: Array("<main>Groceries</main>".utf8))

  @Test func aTagIsQuotedAndDependsOnEveryByte() {
    #expect(tag.value.first == "\"" && tag.value.last == "\"")
    #expect(!tag.value.hasPrefix("W/"))
    #expect(tag == ETag(body: Array("<main>Groceries</main>".utf8)))
    #expect(tag != ETag(body: Array("<main>Groceries</main> ".utf8)))
    #expect(tag != ETag(body: Array("<main>groceries</main>".utf8)))
    #expect(tag.description == tag.value)
  }

  @Test func theHashIsFNV1a64() {
    // Published FNV-1a 64 test vectors: "" and "a".
    #expect(ETag(body: []).value == "\"cbf29ce484222325-0\"")
    #expect(ETag(body: Array("a".utf8)).value == "\"af63dc4c8601ec8c-1\"")
    #expect(ETag(body: Array("foobar".utf8)).value == "\"85944171f73967e8-6\"")
  }

  @Test func ifNoneMatchMatchesExactWeakListedAndStar() {
    let quoted = tag.value
    #expect(tag.matches(ifNoneMatch: quoted))
    #expect(tag.matches(ifNoneMatch: "W/" + quoted))
    #expect(tag.matches(ifNoneMatch: "\"other\", " + quoted))
    #expect(tag.matches(ifNoneMatch: "\"a,b\",W/\"x\" ,\t" + quoted + " , \"z\""))
    #expect(tag.matches(ifNoneMatch: "*"))
    #expect(tag.matches(ifNoneMatch: " * "))
  }

  @Test func ifNoneMatchMissesOtherAndMalformedValues() {
    let bare = String(tag.value.dropFirst().dropLast())
    let misses: [String?] = [
      nil, "", "\"other\"", bare, "w/" + tag.value, "W/" + bare, "\"\"", "\"", "W/",
      tag.value.dropLast() + "x\"", "\"x\" " + bare, "garbage " + tag.value,
      "\"unterminated, " + tag.value,
    ]
    for header in misses {
      #expect(!tag.matches(ifNoneMatch: header), "\(String(describing: header))")
    }
  }

  @Test func onlyGetAndHeadAreNotModified() {
    let headers = ["if-none-match": tag.value]
    #expect(tag.isNotModified(Request(method: "GET", path: "/lists", headers: headers)))
    #expect(tag.isNotModified(Request(method: "HEAD", path: "/lists", headers: headers)))
    #expect(!tag.isNotModified(Request(method: "POST", path: "/lists", headers: headers)))
    #expect(!tag.isNotModified(Request(method: "GET", path: "/lists")))
  }
}
