import HTMLTemplates
import Testing

/// Values, objects, and how they render: the parts the spec leaves to the implementation.
@Suite("Template values and how they render")
struct TemplateValueTests {
  func render(_ source: String, _ context: TemplateValue) throws -> String {
    try Template(source).render(context)
  }

  @Test("Literals build values")
  func literalsBuildValues() {
    let context: TemplateValue = [
      "title": "x", "count": 3, "ratio": 0.5, "on": true, "none": nil,
      "items": [["text": "a", "checked": true]],
    ]
    #expect(context["title"] == .string("x"))
    #expect(context["count"] == .int(3))
    #expect(context["ratio"] == .double(0.5))
    #expect(context["on"] == .bool(true))
    #expect(context["none"] == .null)
    #expect(
      context["items"]
        == .list([.object(TemplateObject(["text": .string("a"), "checked": .bool(true)]))]))
    #expect(context["missing"] == nil)
  }

  @Test("Objects are equal whatever the order of their keys")
  func objectsAreEqualWhateverTheOrderOfTheirKeys() {
    let one = TemplateObject(pairs: [("a", 1), ("b", 2)])
    let two = TemplateObject(pairs: [("b", 2), ("a", 1)])
    #expect(one == two)
    #expect(one != TemplateObject(pairs: [("a", 1)]))
    #expect(one != TemplateObject(pairs: [("a", 1), ("b", 3)]))
  }

  @Test("A repeated key keeps its last value")
  func aRepeatedKeyKeepsItsLastValue() {
    let object = TemplateObject(pairs: [("a", 1), ("a", 2)])
    #expect(object.count == 1)
    #expect(object["a"] == 2)
  }

  @Test("Objects can be changed")
  func objectsCanBeChanged() {
    var object = TemplateObject(["a": 1])
    object["b"] = "two"
    object["a"] = 3
    #expect(object == TemplateObject(["a": 3, "b": "two"]))
    object["a"] = nil
    #expect(object.keys == ["b"])
  }

  @Test("Large objects are indexed")
  func largeObjectsAreIndexed() throws {
    var fields: [String: TemplateValue] = [:]
    for number in 0..<100 { fields["key\(number)"] = .int(number) }
    var object = TemplateObject(fields)
    #expect(object["key42"] == 42)
    object["key100"] = 100
    #expect(object["key100"] == 100)
    #expect(try render("{{key7}} {{key99}} {{key100}} {{nope}}", .object(object)) == "7 99 100 ")
  }

  @Test(
    "Null, false, an empty list and an empty string are falsey; anything else is not",
    arguments: [
      (.null, "no"), (false, "no"), ([], "no"), ("", "no"),
      (true, "yes"), (0, "yes"), (0.0, "yes"), ("x", "yes"), (.object(TemplateObject([:])), "yes"),
    ] as [(TemplateValue, String)])
  func falseyValues(value: TemplateValue, expected: String) throws {
    let template = try Template("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
    #expect(try template.render(["v": value]) == expected)
  }

  @Test("Numbers render")
  func numbersRender() throws {
    let template = try Template("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}")
    #expect(
      try template.render([
        "a": 0, "b": -42, "c": .int(Int.min), "d": 1.21, "e": 3.0, "f": -0.5, "g": 1e300,
      ]) == "0 -42 -9223372036854775808 1.21 3 -0.5 1e+300")
  }

  @Test("Integers render at every number of digits")
  func integersRenderAtEveryNumberOfDigits() throws {
    let template = try Template("{{n}}")
    var number = 1
    for _ in 0..<18 {
      for value in [number - 1, number, number + 1, -number] {
        #expect(try template.render(["n": .int(value)]) == String(value))
      }
      number *= 10
    }
    #expect(try template.render(["n": .int(Int.max)]) == "9223372036854775807")
  }

  @Test("Text runs and values of any length are copied whole")
  func runsOfAnyLengthAreCopiedWhole() throws {
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for length in 0..<letters.count {
      let run = String(letters[0..<length])
      let template = try Template("<\(run)>{{v}}<\(run)>{{{v}}}")
      #expect(try template.render(["v": .string(run)]) == "<\(run)>\(run)<\(run)>\(run)")
    }
  }

  @Test("Objects built field by field render as those built from pairs")
  func objectsBuiltFieldByField() throws {
    let keys = (0..<30).map { TemplateKey("key\($0)") }
    var built = TemplateObject(capacity: 2)
    for (number, key) in keys.enumerated() { built.append(key, .int(number)) }
    let pairs = TemplateObject(fields: keys.enumerated().map { ($1, .int($0)) })
    #expect(built == pairs)
    #expect(built.keys == keys.map(\.name))
    #expect(
      try render("{{key0}} {{key22}} {{key23}} {{key29}} {{key30}}", .object(built))
        == "0 22 23 29 ")
  }

  @Test("A name added or removed after an object is built is found or not")
  func namesAddedOrRemovedAreFoundOrNot() throws {
    var object = TemplateObject(capacity: 1)
    object.append(TemplateKey("a"), 1)
    #expect(try render("{{a}}{{b}}", .object(object)) == "1")
    object["b"] = 2
    #expect(try render("{{a}}{{b}}", .object(object)) == "12")
    object["a"] = nil
    #expect(try render("{{a}}{{b}}{{#a}}x{{/a}}", .object(object)) == "2")
  }

  @Test("Other values render")
  func otherValuesRender() throws {
    #expect(
      try render(
        "{{a}}|{{b}}|{{c}}|{{d}}|{{e}}",
        ["a": true, "b": false, "c": ["x", 1, "<"], "d": ["k": 1], "e": nil])
        == "true|false|x,1,&lt;||")
  }

  @Test("Names resolve through the context stack")
  func namesResolveThroughTheContextStack() throws {
    let context: TemplateValue = [
      "list": ["id": "L1"], "csrf": "T",
      "items": [["id": "I1", "text": "a"], ["id": "I2", "text": "b", "csrf": "inner"]],
    ]
    #expect(
      try render("{{#items}}{{list.id}}/{{id}}:{{text}}:{{csrf}};{{/items}}", context)
        == "L1/I1:a:T;L1/I2:b:inner;")
  }

  @Test("A library renders into an existing buffer")
  func rendersIntoAnExistingBuffer() throws {
    let library = try TemplateLibrary(templates: ["t": "<b>{{x}}</b>"])
    var buffer = Array("HTTP body: ".utf8)
    try library.render("t", context: ["x": "&"], into: &buffer)
    try library.render("t", context: ["x": 1], into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "HTTP body: <b>&amp;</b><b>1</b>")
    #expect(library.contains("t"))
    #expect(!library.contains("u"))
  }

  @Test("Indented standalone partials indent every line")
  func indentedStandalonePartialsIndentEveryLine() throws {
    let library = try TemplateLibrary(templates: [
      "page": "<ul>\n  {{> row}}\n</ul>\n",
      "row": "{{#rows}}\n<li>\n  {{> cell}}\n</li>\n{{/rows}}\n",
      "cell": "{{.}}\n",
    ])
    #expect(
      try library.render("page", context: ["rows": ["a", "b"]])
        == "<ul>\n  <li>\n    a\n  </li>\n  <li>\n    b\n  </li>\n</ul>\n")
  }

  /// Fields remember whether their string needs escaping; a changed field must not keep the
  /// old answer, and strings too long to check up front are escaped when printed.
  @Test("Escaping follows changed and long strings")
  func escapingFollowsChangedAndLongStrings() throws {
    var object = TemplateObject(["a": "plain"])
    #expect(try render("{{a}}", .object(object)) == "plain")
    object["a"] = "<b>"
    #expect(try render("{{a}}", .object(object)) == "&lt;b&gt;")
    object = TemplateObject(pairs: [("a", "x"), ("a", "&")])
    #expect(try render("{{a}}", .object(object)) == "&amp;")
    let long = String(repeating: "a", count: 5000) + "<"
    #expect(
      try render("{{a}}|{{{a}}}", ["a": .string(long)])
        == String(repeating: "a", count: 5000) + "&lt;|" + long)
    #expect(try render("{{#l}}{{.}}{{/l}}", ["l": ["<", "ok"]]) == "&lt;ok")
  }

  @Test("A template alone renders partial tags as nothing")
  func aTemplateAloneRendersPartialTagsAsNothing() throws {
    #expect(try Template("a{{>p}}b\n  {{>q}}\nc").render([:]) == "ab\nc")
  }
}
