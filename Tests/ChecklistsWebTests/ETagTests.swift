import FastCGI
import HTTPTypes
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

  @Test func aTagIsSixteenHexDigitsAndTheLength() {
    let value = ETag(body: Array(repeating: 7, count: 300)).value
    #expect(value.hasPrefix("\"") && value.hasSuffix("-12c\""))
    #expect(value.dropFirst().prefix(16).allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(ETag(body: []).value.hasSuffix("-0\""))
  }

  @Test func theTagIsWrittenAsTheHashAndLengthInHex() {
    var generator = SystemRandomNumberGenerator()
    let lengths = [0, 1, 15, 16, 255, 256, 4_095, 4_096, 7_520, 1 << 20, Int.max]
    let hashes: [UInt64] = [0, 1, 0xF, 0x10, .max, 0x0123_4567_89AB_CDEF]
    for hash in hashes + (0..<200).map({ _ in generator.next() }) {
      for length in lengths + [Int.random(in: 0...(1 << 40), using: &generator)] {
        let hex = String(hash, radix: 16)
        let expected =
          "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-"
          + String(length, radix: 16) + "\""
        #expect(ETag.quoted(hash: hash, length: length) == expected)
      }
    }
  }

  @Test func everyBitOfEveryByteChangesTheTag() {
    // 100 bytes cover the four 8-byte lanes, the 8-byte steps and the tail.
    let base = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    var seen: Set<String> = [ETag(body: base).value]
    for index in base.indices {
      for bit in 0..<8 {
        var changed = base
        changed[index] ^= 1 << bit
        seen.insert(ETag(body: changed).value)
      }
    }
    #expect(seen.count == 1 + 100 * 8)
  }

  @Test func everyPrefixAndSwappedWordsGiveOtherTags() {
    let base = (0..<80).map { UInt8(truncatingIfNeeded: $0) }
    let prefixes = Set((0...80).map { ETag(body: Array(base.prefix($0))).value })
    #expect(prefixes.count == 81)
    let swapped = Array(base[8..<16] + base[0..<8] + base[16...])
    #expect(ETag(body: swapped) != ETag(body: base))
    #expect(ETag(body: base) == ETag(body: base))
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
    let fields: HTTPFields = [.ifNoneMatch: tag.value]
    #expect(
      ConditionalGET.isNotModified(
        Request(method: .get, path: "/lists", headerFields: fields), etag: tag))
    #expect(
      ConditionalGET.isNotModified(
        Request(method: .head, path: "/lists", headerFields: fields), etag: tag))
    #expect(
      !ConditionalGET.isNotModified(
        Request(method: .post, path: "/lists", headerFields: fields), etag: tag))
    #expect(!ConditionalGET.isNotModified(Request(method: .get, path: "/lists"), etag: tag))
  }
}
