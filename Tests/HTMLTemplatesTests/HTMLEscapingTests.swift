import HTMLTemplates
import XCTest

final class HTMLEscapingTests: XCTestCase {
  func testEscapesTheFiveSpecialCharacters() {
    XCTAssertEqual(HTMLEscaping.escape("&<>\"'"), "&amp;&lt;&gt;&quot;&#39;")
  }

  func testEscapesAScriptElement() {
    XCTAssertEqual(
      HTMLEscaping.escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;")
  }

  func testKeepsMultibyteCharactersAndTheRunsBetweenSpecials() {
    XCTAssertEqual(HTMLEscaping.escape("Crème brûlée & 🍮 <b>"), "Crème brûlée &amp; 🍮 &lt;b&gt;")
    XCTAssertEqual(HTMLEscaping.escape("日本語"), "日本語")
  }

  func testLeavesPlainTextAndEmptyTextAlone() {
    XCTAssertEqual(HTMLEscaping.escape(""), "")
    XCTAssertEqual(HTMLEscaping.escape("Milk, eggs = 2/3 `ok`"), "Milk, eggs = 2/3 `ok`")
  }

  func testEscapesAtBothEndsAndInARow() {
    XCTAssertEqual(HTMLEscaping.escape("<<a>>"), "&lt;&lt;a&gt;&gt;")
    XCTAssertEqual(HTMLEscaping.escape("&"), "&amp;")
  }

  func testAppendsToWhatTheBufferHolds() {
    var buffer = Array("x=".utf8)
    HTMLEscaping.append("a<b", to: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "x=a&lt;b")
  }

  func testEscapesABridgedOrSubstringBackedString() {
    // A string that is not natively stored (here built from a Substring) takes the copy path.
    let text = String("--<i>--".dropFirst(2).dropLast(2))
    XCTAssertEqual(HTMLEscaping.escape(text), "&lt;i&gt;")
  }
}
