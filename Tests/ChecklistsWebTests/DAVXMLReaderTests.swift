import Testing

@testable import ChecklistsWeb

/// The strict XML reader of WebDAV bodies: namespaces, text and references
/// read; a DTD, an entity of its own, a processing instruction, CDATA and
/// anything not well-formed refused, before anything is expanded.
@Suite struct DAVXMLReaderTests {
  static func read(_ text: String) throws(DAVXMLError) -> DAVElement {
    try DAVXMLReader.read(Array(text.utf8))
  }

  @Test func readsNamespacesTextAndReferences() throws {
    let root = try Self.read(
      """
      \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
      <!-- a client's comment -->
      <D:propfind xmlns:D='DAV:' xmlns="urn:ietf:params:xml:ns:caldav">
        <D:prop><D:displayname/><calendar-home-set/><x:odd xmlns:x="http://example.com/ns"/></D:prop>
        <D:href>/a&amp;b&lt;&#x41;&#66;&quot;&apos;&gt;</D:href>
      </D:propfind>
      """)
    #expect(root.isNamed("DAV:", "propfind"))
    let prop = try #require(root.child("DAV:", "prop"))
    #expect(
      prop.children.map { "\($0.namespace) \($0.name)" } == [
        "DAV: displayname", "urn:ietf:params:xml:ns:caldav calendar-home-set",
        "http://example.com/ns odd",
      ])
    #expect(root.child("DAV:", "href")?.text == "/a&b<AB\"'>")
  }

  @Test(arguments: [
    // Billion laughs: refused at its declaration, before any expansion.
    (
      """
      <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
      <d:propfind xmlns:d="DAV:">&lol2;</d:propfind>
      """, DAVXMLError.forbidden("a document type declaration or CDATA section")
    ),
    // An external entity.
    (
      """
      <!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:">&xxe;</d:propfind>
      """, .forbidden("a document type declaration or CDATA section")
    ),
    (#"<d:propfind xmlns:d="DAV:">&xxe;</d:propfind>"#, .forbidden("the entity &xxe;")),
    (
      #"<d:propfind xmlns:d="DAV:"><![CDATA[x]]></d:propfind>"#,
      .forbidden("a document type declaration or CDATA section")
    ),
    (
      #"<?xml-stylesheet href="a"?><d:propfind xmlns:d="DAV:"/>"#,
      .forbidden("a processing instruction")
    ),
    (#"<d:propfind xmlns:d="DAV:"><?pi x?></d:propfind>"#, .forbidden("a processing instruction")),
    ("<d:propfind/>", .malformed("the prefix d of <d:propfind> is not declared")),
    (#"<a xmlns="DAV:"><b></a>"#, .malformed("</a> closes <b>")),
    (#"<a xmlns="DAV:">"#, .malformed("<a> is never closed")),
    (#"<a x="1" x="2"/>"#, .malformed("x is given twice")),
    (#"<a x=1/>"#, .malformed("an attribute value must be quoted")),
    ("<a/><b/>", .malformed("something after the root element")),
    ("", .malformed("no root element")),
    ("<a>&#0;</a>", .malformed("&#0; is no character")),
  ])
  func refuses(text: String, error: DAVXMLError) {
    #expect(throws: error) { try Self.read(text) }
  }

  @Test func isBounded() {
    let deep = String(repeating: "<a>", count: 33) + String(repeating: "</a>", count: 33)
    #expect(throws: DAVXMLError.tooLarge("elements nested more than 32 deep")) {
      try Self.read(deep)
    }
    let wide = "<a>" + String(repeating: "<b/>", count: 5_000) + "</a>"
    #expect(throws: DAVXMLError.tooLarge("more than 5000 elements")) { try Self.read(wide) }
    let big = "<a>" + String(repeating: "x", count: DAVXMLReader.maximumBytes) + "</a>"
    #expect(throws: DAVXMLError.tooLarge("more than 65536 bytes")) { try Self.read(big) }
    #expect(throws: DAVXMLError.malformed("not UTF-8")) {
      try DAVXMLReader.read(Array("<a>".utf8) + [0xFF] + Array("</a>".utf8))
    }
  }
}
