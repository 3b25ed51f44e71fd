import Foundation
import HTMLTemplates
import TestSupport
import Testing

/// Syntax errors name the template and the line of the tag at fault.
@Suite("Template errors")
struct TemplateErrorTests {
  func parseError(_ source: String) -> TemplateError? {
    do {
      _ = try Template(source, name: "t")
      return nil
    } catch {
      return error
    }
  }

  @Test("An unclosed section reports the line it opens")
  func unclosedSectionReportsTheLineItOpens() throws {
    let error = try #require(parseError("a\nb\n{{#items}}\nc\n"))
    #expect(error.template == "t")
    #expect(error.line == 3)
    #expect(error.message == "unclosed section {{#items}}")
    #expect(error.description == "t:3: unclosed section {{#items}}")
  }

  @Test("A mismatched closing tag names the tag it should close")
  func mismatchedClosingTag() throws {
    let error = try #require(parseError("{{#a}}\n{{^b}}\n{{/a}}\n"))
    #expect(error.line == 3)
    #expect(error.message == "closing tag {{/a}} does not match {{^b}} of line 2")
  }

  @Test("A closing tag without an opening one")
  func closingTagWithoutOpening() {
    #expect(parseError("x\n{{/a}}")?.line == 2)
  }

  @Test("An unclosed tag")
  func unclosedTag() throws {
    let error = try #require(parseError("one\ntwo {{name\nthree"))
    #expect(error.line == 2)
    #expect(error.message == "unclosed tag")
  }

  @Test("Bad delimiters")
  func badDelimiters() {
    #expect(parseError("{{=<% %>}}")?.line == 1)
    #expect(parseError("\n{{=<%%>=}}")?.line == 2)
    #expect(parseError("{{= a = b =}}")?.message == "bad delimiter tag: expected {{=OPEN CLOSE=}}")
  }

  @Test("An empty tag")
  func emptyTag() {
    #expect(parseError("a {{ }}")?.message == "empty tag")
  }

  @Test("Lines count the newlines inside tags")
  func linesCountNewlinesInsideTags() {
    #expect(parseError("{{!\ncomment\n}}\n{{#a}}")?.line == 4)
  }

  @Test("An unknown template at render time")
  func unknownTemplateAtRenderTime() throws {
    let library = try TemplateLibrary(templates: ["a": "x"])
    let error = try #require(throws: TemplateError.self) {
      try library.render("b", context: [:])
    }
    #expect(error.message == "no template named b")
  }

  @Test("Missing partials are listed and render as nothing")
  func missingPartialsAreListedAndRenderAsNothing() throws {
    let library = try TemplateLibrary(templates: ["page": "<{{> nowhere}}>\n{{<gone}}{{/gone}}"])
    #expect(try library.render("page", context: [:]) == "<>\n")
    #expect(
      library.missingPartials.map(\.description) == [
        "page:1: no template named nowhere for its partial tag",
        "page:2: no template named gone for its partial tag",
      ])
  }

  @Test("A directory with a missing partial fails to load")
  func aDirectoryWithAMissingPartialFailsToLoad() throws {
    let directory = TemporaryDirectory("HTMLTemplatesTests")
    try "<ul>\n{{#rows}}\n{{> row}}\n{{/rows}}\n</ul>\n".write(
      toFile: directory.appending("page.mustache"), atomically: true, encoding: .utf8)
    try "ignored".write(toFile: directory.appending("notes.txt"), atomically: true, encoding: .utf8)
    let error = try #require(throws: (any Error).self) {
      try TemplateLibrary(directory: directory.path)
    }
    #expect("\(error)" == "page:3: no template named row for its partial tag")
    try "<li>{{.}}</li>\n".write(
      toFile: directory.appending("row.mustache"), atomically: true, encoding: .utf8)
    let library = try TemplateLibrary(directory: directory.path)
    #expect(library.names == ["page", "row"])
    #expect(
      try library.render("page", context: ["rows": ["a", "<b>"]])
        == "<ul>\n<li>a</li>\n<li>&lt;b&gt;</li>\n</ul>\n")
  }

  @Test("A syntax error in a file names the template")
  func aSyntaxErrorInAFileNamesTheTemplate() throws {
    let error = try #require(throws: (any Error).self) {
      try TemplateLibrary(templates: ["ok": "x", "bad": "\n\n{{#a}}"])
    }
    #expect("\(error)" == "bad:3: unclosed section {{#a}}")
  }

  @Test("A missing directory fails to load")
  func aMissingDirectoryFailsToLoad() {
    #expect(throws: (any Error).self) { try TemplateLibrary(directory: "/nonexistent/templates") }
  }

  @Test("A partial that includes itself stops with an error, whatever the data")
  func aPartialThatIncludesItselfWhateverTheDataStopsWithAnError() throws {
    let library = try TemplateLibrary(templates: ["loop": "x{{> loop}}"])
    let error = try #require(throws: TemplateError.self) {
      try library.render("loop", context: [:])
    }
    #expect(error.message == "partial loop nested more than 200 deep")
  }
}
