import Storage
import XCTest

final class HexTests: XCTestCase {
  func testEveryByteHasItsTwoLowerCaseDigits() {
    let bytes = (0...255).map { UInt8($0) }
    let expected = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    XCTAssertEqual(Hex.encode(bytes), expected)
    XCTAssertEqual(bytes.withUnsafeBufferPointer { Hex.encode($0) }, expected)
    XCTAssertEqual(Hex.encode(bytes.lazy.map { $0 }), expected)
    XCTAssertEqual(Hex.decodeLowercase(expected), bytes)
  }

  func testOnlyEvenLowerCaseHexDecodes() {
    XCTAssertEqual(Hex.encode([UInt8]()), "")
    for text in ["0", "0g", "AB", "abc", " a"] { XCTAssertNil(Hex.decodeLowercase(text), text) }
  }
}
