import HTMLTemplates
import Testing

@Suite("HTML escaping")
struct HTMLEscapingTests {
  @Test("The five special characters are escaped")
  func escapesTheFiveSpecialCharacters() {
    #expect(HTMLEscaping.escape("&<>\"'") == "&amp;&lt;&gt;&quot;&#39;")
  }

  @Test("A script element is escaped")
  func escapesAScriptElement() {
    #expect(
      HTMLEscaping.escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
  }

  @Test("Multibyte characters and the runs between specials are kept")
  func keepsMultibyteCharactersAndTheRunsBetweenSpecials() {
    #expect(HTMLEscaping.escape("Crème brûlée & 🍮 <b>") == "Crème brûlée &amp; 🍮 &lt;b&gt;")
    #expect(HTMLEscaping.escape("日本語") == "日本語")
  }

  @Test("Plain text and empty text are left alone")
  func leavesPlainTextAndEmptyTextAlone() {
    #expect(HTMLEscaping.escape("") == "")
    #expect(HTMLEscaping.escape("Milk, eggs = 2/3 `ok`") == "Milk, eggs = 2/3 `ok`")
  }

  @Test("Specials at both ends and in a row are escaped")
  func escapesAtBothEndsAndInARow() {
    #expect(HTMLEscaping.escape("<<a>>") == "&lt;&lt;a&gt;&gt;")
    #expect(HTMLEscaping.escape("&") == "&amp;")
  }

  @Test("Escaping appends to what the buffer holds")
  func appendsToWhatTheBufferHolds() {
    var buffer = Array("x=".utf8)
    HTMLEscaping.append("a<b", to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "x=a&lt;b")
  }

  @Test("A string that is not natively stored is escaped too")
  func escapesABridgedOrSubstringBackedString() {
    // A string that is not natively stored (here built from a Substring) takes the copy path.
    let text = String("--<i>--".dropFirst(2).dropLast(2))
    #expect(HTMLEscaping.escape(text) == "&lt;i&gt;")
  }
}
