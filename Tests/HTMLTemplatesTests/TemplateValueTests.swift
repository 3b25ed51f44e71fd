import HTMLTemplates
import XCTest

/// Values, objects, and how they render: the parts the spec leaves to the implementation.
final class TemplateValueTests: XCTestCase {
  func render(_ source: String, _ context: TemplateValue) throws -> String {
    try Template(source).render(context)
  }

  func testLiteralsBuildValues() {
    let context: TemplateValue = [
      "title": "x", "count": 3, "ratio": 0.5, "on": true, "none": nil,
      "items": [["text": "a", "checked": true]],
    ]
    XCTAssertEqual(context["title"], .string("x"))
    XCTAssertEqual(context["count"], .int(3))
    XCTAssertEqual(context["ratio"], .double(0.5))
    XCTAssertEqual(context["on"], .bool(true))
    XCTAssertEqual(context["none"], .null)
    XCTAssertEqual(
      context["items"],
      .list([.object(TemplateObject(["text": .string("a"), "checked": .bool(true)]))]))
    XCTAssertNil(context["missing"])
  }

  func testObjectsAreEqualWhateverTheOrderOfTheirKeys() {
    let one = TemplateObject(pairs: [("a", 1), ("b", 2)])
    let two = TemplateObject(pairs: [("b", 2), ("a", 1)])
    XCTAssertEqual(one, two)
    XCTAssertNotEqual(one, TemplateObject(pairs: [("a", 1)]))
    XCTAssertNotEqual(one, TemplateObject(pairs: [("a", 1), ("b", 3)]))
  }

  func testARepeatedKeyKeepsItsLastValue() {
    let object = TemplateObject(pairs: [("a", 1), ("a", 2)])
    XCTAssertEqual(object.count, 1)
    XCTAssertEqual(object["a"], 2)
  }

  func testObjectsCanBeChanged() {
    var object = TemplateObject(["a": 1])
    object["b"] = "two"
    object["a"] = 3
    XCTAssertEqual(object, TemplateObject(["a": 3, "b": "two"]))
    object["a"] = nil
    XCTAssertEqual(object.keys, ["b"])
  }

  func testLargeObjectsAreIndexed() throws {
    var fields: [String: TemplateValue] = [:]
    for number in 0..<100 { fields["key\(number)"] = .int(number) }
    var object = TemplateObject(fields)
    XCTAssertEqual(object["key42"], 42)
    object["key100"] = 100
    XCTAssertEqual(object["key100"], 100)
    XCTAssertEqual(
      try render("{{key7}} {{key99}} {{key100}} {{nope}}", .object(object)), "7 99 100 ")
  }

  func testFalseyValues() throws {
    let template = try Template("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
    let cases: [(TemplateValue, String)] = [
      (.null, "no"), (false, "no"), ([], "no"), ("", "no"),
      (true, "yes"), (0, "yes"), (0.0, "yes"), ("x", "yes"), (.object(TemplateObject([:])), "yes"),
    ]
    for (value, expected) in cases {
      XCTAssertEqual(try template.render(["v": value]), expected, "\(value)")
    }
  }

  func testNumbersRender() throws {
    let template = try Template("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}")
    XCTAssertEqual(
      try template.render([
        "a": 0, "b": -42, "c": .int(Int.min), "d": 1.21, "e": 3.0, "f": -0.5, "g": 1e300,
      ]),
      "0 -42 -9223372036854775808 1.21 3 -0.5 1e+300")
  }

  func testOtherValuesRender() throws {
    XCTAssertEqual(
      try render(
        "{{a}}|{{b}}|{{c}}|{{d}}|{{e}}",
        ["a": true, "b": false, "c": ["x", 1, "<"], "d": ["k": 1], "e": nil]),
      "true|false|x,1,&lt;||")
  }

  func testNamesResolveThroughTheContextStack() throws {
    let context: TemplateValue = [
      "list": ["id": "L1"], "csrf": "T",
      "items": [["id": "I1", "text": "a"], ["id": "I2", "text": "b", "csrf": "inner"]],
    ]
    XCTAssertEqual(
      try render("{{#items}}{{list.id}}/{{id}}:{{text}}:{{csrf}};{{/items}}", context),
      "L1/I1:a:T;L1/I2:b:inner;")
  }

  func testRendersIntoAnExistingBuffer() throws {
    let library = try TemplateLibrary(templates: ["t": "<b>{{x}}</b>"])
    var buffer = Array("HTTP body: ".utf8)
    try library.render("t", context: ["x": "&"], into: &buffer)
    try library.render("t", context: ["x": 1], into: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "HTTP body: <b>&amp;</b><b>1</b>")
    XCTAssertTrue(library.contains("t"))
    XCTAssertFalse(library.contains("u"))
  }

  func testIndentedStandalonePartialsIndentEveryLine() throws {
    let library = try TemplateLibrary(templates: [
      "page": "<ul>\n  {{> row}}\n</ul>\n",
      "row": "{{#rows}}\n<li>\n  {{> cell}}\n</li>\n{{/rows}}\n",
      "cell": "{{.}}\n",
    ])
    XCTAssertEqual(
      try library.render("page", context: ["rows": ["a", "b"]]),
      "<ul>\n  <li>\n    a\n  </li>\n  <li>\n    b\n  </li>\n</ul>\n")
  }

  /// Fields remember whether their string needs escaping; a changed field must not keep the
  /// old answer, and strings too long to check up front are escaped when printed.
  func testEscapingFollowsChangedAndLongStrings() throws {
    var object = TemplateObject(["a": "plain"])
    XCTAssertEqual(try render("{{a}}", .object(object)), "plain")
    object["a"] = "<b>"
    XCTAssertEqual(try render("{{a}}", .object(object)), "&lt;b&gt;")
    object = TemplateObject(pairs: [("a", "x"), ("a", "&")])
    XCTAssertEqual(try render("{{a}}", .object(object)), "&amp;")
    let long = String(repeating: "a", count: 5000) + "<"
    XCTAssertEqual(
      try render("{{a}}|{{{a}}}", ["a": .string(long)]),
      String(repeating: "a", count: 5000) + "&lt;|" + long)
    XCTAssertEqual(try render("{{#l}}{{.}}{{/l}}", ["l": ["<", "ok"]]), "&lt;ok")
  }

  func testATemplateAloneRendersPartialTagsAsNothing() throws {
    XCTAssertEqual(try Template("a{{>p}}b\n  {{>q}}\nc").render([:]), "ab\nc")
  }
}
