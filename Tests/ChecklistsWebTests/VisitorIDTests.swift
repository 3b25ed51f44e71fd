import TestSupport
import Testing

@testable import ChecklistsWeb

@Suite struct VisitorIDTests {
  @Test func aNewIdIs32LowerCaseHexDigits() {
    let id = VisitorID()
    #expect(id.hex.utf8.count == 32)
    #expect(id.hex.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(id.cookieValue == id.hex)
    #expect(id.description == id.hex)
  }

  @Test func newIdsDiffer() {
    let ids = Set((0..<1_000).map { _ in VisitorID() })
    #expect(ids.count == 1_000)
  }

  @Test func aGeneratorGivesAKnownId() {
    var generator = SeededGenerator(seed: 0)
    let first = VisitorID(using: &generator)
    var again = SeededGenerator(seed: 0)
    #expect(VisitorID(using: &again) == first)
    // Leading zero bytes keep their two digits.
    struct Zeros: RandomNumberGenerator { mutating func next() -> UInt64 { 0 } }
    var zeros = Zeros()
    #expect(VisitorID(using: &zeros).hex == String(repeating: "0", count: 32))
  }

  @Test func aCookieValueRoundTrips() {
    let id = VisitorID()
    #expect(VisitorID(cookieValue: id.cookieValue) == id)
    #expect(
      VisitorID(cookieValue: "0123456789abcdef0123456789abcdef")?.hex
        == "0123456789abcdef0123456789abcdef")
  }

  @Test func anyOtherCookieValueIsRefused() {
    let valid = "0123456789abcdef0123456789abcdef"
    let hostile = [
      "", "0", String(valid.dropLast()), valid + "0", valid + valid,
      "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdeg0123456789abcdef",
      "../../../../../../../../etc/passwd", "../0123456789abcdef0123456789abc",
      "0123456789abcdef/0123456789abcde", " 0123456789abcdef0123456789abcde",
      "0123456789abcdef0123456789abcde ", "\"0123456789abcdef0123456789abcd\"",
      "0123456789abcdef0123456789abcd\u{0}f", "0123456789abcdef0123456789abcdé",
      "０123456789abcdef0123456789abcde", String(repeating: "a", count: 100_000),
    ]
    for value in hostile { #expect(VisitorID(cookieValue: value) == nil, "\(value.prefix(40))") }
  }
}
