import Support
import Testing

@Suite struct HexTests {
  @Test func everyByteHasItsTwoLowerCaseDigits() {
    let bytes = (0...255).map { UInt8($0) }
    let expected = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    #expect(Hex.encode(bytes) == expected)
    #expect(bytes.withUnsafeBufferPointer { Hex.encode($0) } == expected)
    #expect(Hex.encode(bytes.lazy.map { $0 }) == expected)
    #expect(Hex.decodeLowercase(expected) == bytes)
  }

  @Test func onlyEvenLowerCaseHexDecodes() {
    #expect(Hex.encode([UInt8]()) == "")
    for text in ["0", "0g", "AB", "abc", " a"] {
      #expect(Hex.decodeLowercase(text) == nil, "\(text)")
    }
  }
}
