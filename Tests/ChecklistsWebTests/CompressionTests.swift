import Documents
import FastCGI
import Foundation
import HTTPTypes
import Testing
import WebTestSupport

@testable import ChecklistsWeb

@Suite struct AcceptEncodingTests {
  @Test(arguments: [
    "gzip", "GZIP", "x-gzip", "gzip, deflate, br, zstd", "deflate, gzip;q=0.5", " gzip ; q=1 ",
    "gzip;q=0.001", "*", "br, *;q=0.1", "gzip;Q=1.000", "identity, gzip",
  ])
  func allows(_ field: String) {
    #expect(AcceptEncoding.allowsGzip(field), "\(field)")
  }

  @Test(arguments: [
    "", "identity", "br, deflate", "gzip;q=0", "gzip;q=0.000", "*;q=0", "gzip;q=0, *",
    "*, gzip;q=0", "gzip;q=1.5", "gzip;q=2", "gzip;q=0.5000", "gzip;q=", "gzip;q=abc",
    "gzip;level=9", "gzipx", "gzi", "x-gzip;q=0", "identity;q=0", "x\rgzip", "gzip;q=1;q=0",
    ",,", "gzip;",
  ])
  func refuses(_ field: String) {
    #expect(!AcceptEncoding.allowsGzip(field), "\(field)")
  }

  @Test func noFieldMeansThePlainBytes() {
    #expect(!AcceptEncoding.allowsGzip(nil))
  }

  @Test func qvalues() {
    #expect(AcceptEncoding.qvalue("0.5".utf8[...]) == 500)
    #expect(AcceptEncoding.qvalue("1".utf8[...]) == 1000)
    #expect(AcceptEncoding.qvalue("0.25".utf8[...]) == 250)
    #expect(AcceptEncoding.qvalue("0.".utf8[...]) == 0)
    #expect(AcceptEncoding.qvalue("1.001".utf8[...]) == nil)
    #expect(AcceptEncoding.qvalue(".5".utf8[...]) == nil)
  }
}

@Suite struct GzipTests {
  /// Text as a page is, and bytes that do not compress: each comes back
  /// whole, at every level.
  @Test func aRoundTripGivesTheSameBytes() throws {
    let page = Array(String(repeating: "<li class=\"row\">milk &amp; eggs</li>\n", count: 300).utf8)
    var generator = SystemRandomNumberGenerator()
    let noise = (0..<40_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for bytes in [page, noise, [], [7]] {
      for level: Int32 in [1, 6, 9] {
        let packed = Gzip.compress(bytes, level: level)
        #expect(packed.prefix(3) == [0x1f, 0x8b, 8], "a gzip member")
        #expect(Gzip.decompress(packed, limit: bytes.count) == bytes)
      }
    }
    #expect(Gzip.compress(page).count < page.count / 10)
  }

  /// No time or name in the header: the same input gives the same bytes.
  @Test func theSameInputGivesTheSameBytes() {
    let text = Array("body { margin: 0 }\n".utf8)
    let first = Gzip.compress(text)
    usleep(1_100_000)
    #expect(Gzip.compress(text) == first)
    #expect(first[4..<8] == [0, 0, 0, 0], "MTIME 0")
    #expect(first[3] == 0, "no FNAME, FCOMMENT or FEXTRA")
  }

  @Test func aDamagedShortOrOversizedMemberIsRefused() {
    let text = Array(String(repeating: "checklists ", count: 500).utf8)
    var packed = Gzip.compress(text)
    #expect(Gzip.decompress(packed, limit: text.count - 1) == nil, "over the limit")
    #expect(Gzip.decompress(Array(packed.dropLast(4)), limit: text.count) == nil, "cut short")
    #expect(Gzip.decompress(packed + [0], limit: text.count) == nil, "trailing bytes")
    packed[packed.count / 2] ^= 0xff
    #expect(Gzip.decompress(packed, limit: text.count) == nil, "damaged")
    #expect(Gzip.decompress(text, limit: text.count) == nil, "not gzip")
  }
}

/// A kept page goes out gzipped to a browser that takes gzip, plain to
/// one that does not, each with its own tag and each revalidating to its
/// own `304`.
@Suite struct CompressedPageTests {
  private func settle() {
    usleep(UInt32(DocumentVersion.settleNanoseconds / 1_000) + 5_000)
  }

  private func request(
    _ browser: ApplicationHarness, _ method: HTTPRequest.Method = .get,
    encoding: String? = nil, ifNoneMatch: String? = nil
  ) -> Request {
    var fields: HTTPFields = [.cookie: browser.cookieHeader]
    if let encoding { fields[.acceptEncoding] = encoding }
    if let ifNoneMatch { fields[.ifNoneMatch] = ifNoneMatch }
    return Request(method: method, path: "/lists/1", headerFields: fields)
  }

  /// A visitor with a 20-item list whose page is computed once, its
  /// change settled: the next page asked for is computed and kept.
  private func twentyItemList() throws -> (ApplicationHarness, Application) {
    let browser = try ApplicationHarness()
    for number in 0..<20 { browser.post("/lists/1/items", [("text", "item \(number)")]) }
    browser.get("/lists/1")
    settle()
    return (browser, browser.application)
  }

  @Test func aKeptPageIsSentInTheFormTheRequestAccepts() throws {
    let (browser, app) = try twentyItemList()
    // Computed and kept as a browser's: gzipped alone, at the smallest level.
    let first = app.respond(to: request(browser, encoding: "gzip"))
    #expect(first.headerFields[.contentEncoding] == "gzip")
    let plain = app.respond(to: request(browser))
    let gzipped = app.respond(to: request(browser, encoding: "gzip, deflate, br"))
    #expect(plain.headerFields[.contentEncoding] == nil)
    #expect(gzipped.headerFields[.contentEncoding] == "gzip")
    #expect(Gzip.decompress(gzipped.body, limit: 1 << 20) == plain.body)
    #expect(Gzip.decompress(first.body, limit: 1 << 20) == plain.body)
    #expect(first.headerFields[.eTag] == gzipped.headerFields[.eTag], "whoever compressed it")
    #expect(gzipped.body.count <= first.body.count, "kept: the smallest level")
    #expect(gzipped.body.count < 2_500, "the 20-item page gzipped: \(gzipped.body.count) bytes")
    // In the browser's language (none chosen), so it varies with that too.
    #expect(plain.headerFields[.vary] == "Accept-Encoding, Accept-Language")
    #expect(gzipped.headerFields[.vary] == "Accept-Encoding, Accept-Language")
    let plainTag = try #require(plain.headerFields[.eTag])
    let gzippedTag = try #require(gzipped.headerFields[.eTag])
    #expect(gzippedTag == "W/" + plainTag)
    // Every other field is the plain answer's.
    #expect(
      gzipped.headerFields.filter { $0.name != .eTag && $0.name != .contentEncoding }
        == plain.headerFields.filter { $0.name != .eTag })
    // Refused gzip: the plain form.
    let refused = app.respond(to: request(browser, encoding: "gzip;q=0, identity"))
    #expect(refused == plain)
    // Compressed once: the kept form is the one sent again.
    let key = try #require(ResponseMemo.Key(request(browser)))
    #expect(app.memo.entry(for: key)?.gzipped == gzipped)
    #expect(app.respond(to: request(browser, encoding: "gzip")) == gzipped)
  }

  @Test func eachFormRevalidatesToItsOwn304() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", String(repeating: "milk ", count: 200))])
    browser.get("/lists/1")
    settle()
    let app = browser.application
    app.respond(to: request(browser))
    let plain = app.respond(to: request(browser))
    let gzipped = app.respond(to: request(browser, encoding: "gzip"))
    let plainTag = try #require(plain.headerFields[.eTag])
    let gzippedTag = try #require(gzipped.headerFields[.eTag])
    #expect(plainTag != gzippedTag)
    let gzip304 = app.respond(to: request(browser, encoding: "gzip", ifNoneMatch: gzippedTag))
    #expect(gzip304.status == .notModified && gzip304.body.isEmpty)
    #expect(gzip304.headerFields[.eTag] == gzippedTag)
    #expect(gzip304.headerFields[.vary] == "Accept-Encoding, Accept-Language")
    let plain304 = app.respond(to: request(browser, ifNoneMatch: plainTag))
    #expect(plain304.status == .notModified && plain304.headerFields[.eTag] == plainTag)
    // Either form's tag is the same page: a 304 with the tag of the form asked for.
    let crossed = app.respond(to: request(browser, ifNoneMatch: gzippedTag))
    #expect(crossed.status == .notModified && crossed.headerFields[.eTag] == plainTag)
    let crossedBack = app.respond(to: request(browser, encoding: "gzip", ifNoneMatch: plainTag))
    #expect(crossedBack.status == .notModified && crossedBack.headerFields[.eTag] == gzippedTag)
    // Another page's tag does not.
    let other = "W/\"0123456789abcdef-1c2a\""
    #expect(app.respond(to: request(browser, encoding: "gzip", ifNoneMatch: other)) == gzipped)
    // HEAD: the gzipped form's fields, its length.
    let head = app.respond(to: request(browser, .head, encoding: "gzip"))
    #expect(head.headerFields[.contentEncoding] == "gzip")
    #expect(head.headerFields[.eTag] == gzippedTag)
  }

  /// A page with a query is never kept: compressed for each request that
  /// takes gzip, with the tag a kept one would have; its 304 is not
  /// compressed but carries that tag; a redirect's line stays plain.
  @Test func anAnswerTheMemoDoesNotKeepIsCompressedOnTheFly() throws {
    let browser = try ApplicationHarness()
    for number in 0..<20 { browser.post("/lists/1/items", [("text", "item \(number)")]) }
    let plain = browser.get("/lists/1?from=test")
    let gzipped = browser.get("/lists/1?from=test", headerFields: [.acceptEncoding: "gzip"])
    #expect(plain.headerFields[.contentEncoding] == nil)
    #expect(gzipped.headerFields[.contentEncoding] == "gzip")
    #expect(Gzip.decompress(gzipped.body, limit: 1 << 20) == plain.body)
    let tag = try #require(plain.headerFields[.eTag])
    #expect(gzipped.headerFields[.eTag] == "W/" + tag)
    let again = browser.get(
      "/lists/1?from=test", headerFields: [.acceptEncoding: "gzip", .ifNoneMatch: "W/" + tag])
    #expect(again.status == .notModified && again.body.isEmpty)
    #expect(again.headerFields[.eTag] == "W/" + tag)
    let redirect = browser.post(
      "/lists/1/items", [("text", "one more")], headerFields: [.acceptEncoding: "gzip"])
    #expect(redirect.status == .seeOther && redirect.headerFields[.contentEncoding] == nil)
  }

  /// A page is kept in the form the browser that asked for it takes: a
  /// browser's (gzip) gzipped alone, at the smallest level, sent again as
  /// it is and counted at a third of both forms; a request of that key
  /// that takes no gzip is computed, and its plain page kept for it.
  @Test func aBrowsersPageIsKeptGzippedAlone() throws {
    let (browser, app) = try twentyItemList()
    let computed = app.respond(to: request(browser, encoding: "gzip, deflate, br, zstd"))
    let key = try #require(ResponseMemo.Key(request(browser)))
    let entry = try #require(app.memo.entry(for: key))
    #expect(entry.plain == nil)
    #expect(entry.gzipped == computed)
    #expect(computed.body == Gzip.compress(Gzip.decompress(computed.body, limit: 1 << 20)!))
    #expect(entry.answers(request(browser, encoding: "gzip")))
    #expect(!entry.answers(request(browser)), "a page kept gzipped alone answers no plain GET")
    #expect(app.respond(to: request(browser, encoding: "gzip")) == computed)
    func fieldBytes(_ response: Response) -> Int {
      response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }
    #expect(
      entry.cost
        == ResponseMemo.entryOverhead + computed.body.count + fieldBytes(computed)
        + key.path.utf8.count + key.cookies.utf8.count)
    // Revalidated and HEAD by the browser: from the kept form.
    let tag = try #require(computed.headerFields[.eTag])
    let revalidated = app.respond(to: request(browser, encoding: "gzip", ifNoneMatch: tag))
    #expect(revalidated.status == .notModified && revalidated.headerFields[.eTag] == tag)
    // A client that takes no gzip: the plain page, computed and kept.
    let plain = app.respond(to: request(browser))
    #expect(plain.headerFields[.contentEncoding] == nil)
    #expect(Gzip.decompress(computed.body, limit: 1 << 20) == plain.body)
    #expect(app.memo.entry(for: key)?.plain == plain)
    #expect(app.respond(to: request(browser)) == plain)
  }

  /// What the memo counts for a kept page is what it holds: both bodies,
  /// the fields, the key and the overhead; and a budget of a few pages
  /// keeps only the newest.
  @Test func theMemoCountsItsBytesAndKeepsWithinItsBudget() throws {
    let (browser, app) = try twentyItemList()
    app.respond(to: request(browser))
    let plain = app.respond(to: request(browser))
    let gzipped = app.respond(to: request(browser, encoding: "gzip"))
    let key = try #require(ResponseMemo.Key(request(browser)))
    let entry = try #require(app.memo.entry(for: key))
    func fieldBytes(_ response: Response) -> Int {
      response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }
    let expected =
      ResponseMemo.entryOverhead + ResponseMemo.secondFormOverhead + plain.body.count
      + fieldBytes(plain) + gzipped.body.count
      + fieldBytes(gzipped) + key.path.utf8.count + key.cookies.utf8.count
    #expect(entry.cost == expected)
    #expect(app.memo.usage.bytes == expected && app.memo.usage.answers == 1)

    // Room for three such pages: the fourth visitor's pushes the first out.
    let small = ResponseMemo(budget: expected * 3 + expected / 2, documents: app.documents)
    let version = try #require(small.version(of: browser.data, now: Date()))
    let keys = (0..<4).map { number in
      ResponseMemo.Key(
        Request(
          method: .get, path: "/lists/1",
          headerFields: [.cookie: browser.cookieHeader + "; n=\(number)"]))!
    }
    for key in keys {
      small.keep(plain, version: version, until: .max, for: key, route: 0)
      if let kept = small.entry(for: key) {
        _ = small.answer(kept, for: key, to: request(browser, encoding: "gzip"))
      }
    }
    #expect(small.usage.answers == 3)
    #expect(small.usage.bytes <= expected * 3 + expected / 2)
    #expect(small.entry(for: keys[0]) == nil)
    #expect(keys.dropFirst().allSatisfy { small.entry(for: $0)?.gzipped != nil })
  }
}

@Suite struct GzippedTagTests {
  let plain = ETag(body: Array("<main>Groceries</main>".utf8))
  var gzipped: ETag { ETag(keptValue: "W/" + plain.value) }

  /// The gzipped form's tag is the plain one's made weak; `If-None-Match`
  /// compares weakly, so either revalidates either form.
  @Test func aPagesTwoFormsAreWeaklyOneTag() {
    for candidate in [plain.value, gzipped.value, "\"x\", " + gzipped.value] {
      #expect(plain.matches(ifNoneMatch: candidate), "\(candidate)")
      #expect(gzipped.matches(ifNoneMatch: candidate), "\(candidate)")
    }
    let other = ETag(body: Array("<main>groceries</main>".utf8))
    for candidate in [other.value, "W/" + other.value, "W/W/" + plain.value] {
      #expect(!gzipped.matches(ifNoneMatch: candidate), "\(candidate)")
    }
    #expect(ResponseMemo.weak(plain.value) == gzipped.value)
    #expect(ResponseMemo.weak(gzipped.value) == gzipped.value)
  }
}
