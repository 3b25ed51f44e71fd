import Foundation
import HTMLTemplates
import XCTest

/// Syntax errors name the template and the line of the tag at fault.
final class TemplateErrorTests: XCTestCase {
  func error(_ source: String) -> TemplateError? {
    do {
      _ = try Template(source, name: "t")
      return nil
    } catch {
      return error
    }
  }

  func testUnclosedSectionReportsTheLineItOpens() {
    let error = error("a\nb\n{{#items}}\nc\n")
    XCTAssertEqual(error?.template, "t")
    XCTAssertEqual(error?.line, 3)
    XCTAssertEqual(error?.message, "unclosed section {{#items}}")
    XCTAssertEqual(error?.description, "t:3: unclosed section {{#items}}")
  }

  func testMismatchedClosingTag() {
    let error = error("{{#a}}\n{{^b}}\n{{/a}}\n")
    XCTAssertEqual(error?.line, 3)
    XCTAssertEqual(error?.message, "closing tag {{/a}} does not match {{^b}} of line 2")
  }

  func testClosingTagWithoutOpening() {
    XCTAssertEqual(error("x\n{{/a}}")?.line, 2)
  }

  func testUnclosedTag() {
    let error = error("one\ntwo {{name\nthree")
    XCTAssertEqual(error?.line, 2)
    XCTAssertEqual(error?.message, "unclosed tag")
  }

  func testBadDelimiters() {
    XCTAssertEqual(error("{{=<% %>}}")?.line, 1)
    XCTAssertEqual(error("\n{{=<%%>=}}")?.line, 2)
    XCTAssertEqual(error("{{= a = b =}}")?.message, "bad delimiter tag: expected {{=OPEN CLOSE=}}")
  }

  func testEmptyTag() {
    XCTAssertEqual(error("a {{ }}")?.message, "empty tag")
  }

  func testLinesCountNewlinesInsideTags() {
    XCTAssertEqual(error("{{!\ncomment\n}}\n{{#a}}")?.line, 4)
  }

  func testUnknownTemplateAtRenderTime() throws {
    let library = try TemplateLibrary(templates: ["a": "x"])
    XCTAssertThrowsError(try library.render("b", context: [:])) { error in
      XCTAssertEqual((error as? TemplateError)?.message, "no template named b")
    }
  }

  func testMissingPartialsAreListedAndRenderAsNothing() throws {
    let library = try TemplateLibrary(templates: ["page": "<{{> nowhere}}>\n{{<gone}}{{/gone}}"])
    XCTAssertEqual(try library.render("page", context: [:]), "<>\n")
    XCTAssertEqual(
      library.missingPartials.map(\.description),
      [
        "page:1: no template named nowhere for its partial tag",
        "page:2: no template named gone for its partial tag",
      ])
  }

  func testADirectoryWithAMissingPartialFailsToLoad() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("HTMLTemplatesTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try "<ul>\n{{#rows}}\n{{> row}}\n{{/rows}}\n</ul>\n".write(
      to: directory.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
    try "ignored".write(
      to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try TemplateLibrary(directory: directory.path)) { error in
      XCTAssertEqual("\(error)", "page:3: no template named row for its partial tag")
    }
    try "<li>{{.}}</li>\n".write(
      to: directory.appendingPathComponent("row.mustache"), atomically: true, encoding: .utf8)
    let library = try TemplateLibrary(directory: directory.path)
    XCTAssertEqual(library.names, ["page", "row"])
    XCTAssertEqual(
      try library.render("page", context: ["rows": ["a", "<b>"]]),
      "<ul>\n<li>a</li>\n<li>&lt;b&gt;</li>\n</ul>\n")
  }

  func testASyntaxErrorInAFileNamesTheTemplate() throws {
    XCTAssertThrowsError(try TemplateLibrary(templates: ["ok": "x", "bad": "\n\n{{#a}}"])) {
      XCTAssertEqual("\($0)", "bad:3: unclosed section {{#a}}")
    }
  }

  func testAMissingDirectoryFailsToLoad() {
    XCTAssertThrowsError(try TemplateLibrary(directory: "/nonexistent/templates"))
  }

  func testAPartialThatIncludesItselfWhateverTheDataStopsWithAnError() throws {
    let library = try TemplateLibrary(templates: ["loop": "x{{> loop}}"])
    XCTAssertThrowsError(try library.render("loop", context: [:])) { error in
      XCTAssertEqual((error as? TemplateError)?.message, "partial loop nested more than 200 deep")
    }
  }
}
