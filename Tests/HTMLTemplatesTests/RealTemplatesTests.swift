import Foundation
import HTMLTemplates
import XCTest

/// The app's own `Templates/` directory loads, links and renders every screen.
final class RealTemplatesTests: XCTestCase {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates")
    .path

  static let library = Result { try TemplateLibrary(directory: directory) }

  func library() throws -> TemplateLibrary { try Self.library.get() }

  static let checklist: TemplateValue = [
    "list": ["id": "L1", "name": "Groceries & more", "icon": ["svg": "<svg id=\"cart\"/>"]],
    "hasItems": true,
    "items": [
      ["id": "I1", "text": "<script>alert(1)</script>", "checked": false],
      ["id": "I2", "text": "Crème fraîche \"bio\"", "checked": true],
    ],
    "csrf": "0123abcd",
    "addNonce": 7,
    "limits": ["itemText": 200],
  ]

  func testLoadsEveryTemplate() throws {
    XCTAssertEqual(
      try library().names,
      [
        "about", "all-lists", "checklist", "csrf-field", "error", "item-form", "item-row", "layout",
        "list-form", "list-row", "settings",
      ])
  }

  func testRendersTheChecklistEscapingItemText() throws {
    let html = try library().render("checklist", context: Self.checklist)
    XCTAssertFalse(html.contains("{{"))
    XCTAssertFalse(html.contains("}}"))
    XCTAssertTrue(
      html.contains(
        "aria-pressed=\"false\" name=\"check\" value=\"1\">&lt;script&gt;alert(1)&lt;/script&gt;</button>"
      ))
    // Each toggle asks for the state it wants, the opposite of the one shown.
    XCTAssertTrue(html.contains("aria-pressed=\"true\" name=\"check\" value=\"0\">Crème"))
    XCTAssertTrue(html.contains("<input type=\"hidden\" name=\"nonce\" value=\"7\">"))
    XCTAssertFalse(html.contains("<script>"))
    XCTAssertTrue(html.contains("Crème fraîche &quot;bio&quot;"))
    XCTAssertTrue(
      html.contains(
        "<h1><span class=\"icon\" aria-hidden=\"true\"><svg id=\"cart\"/></span>Groceries &amp; more</h1>"
      ))
    // Names inside a row that the row lacks come from the enclosing context.
    XCTAssertTrue(html.contains("formaction=\"L1/items/I1/toggle\""))
    XCTAssertTrue(html.contains("<li><button class=\"check\" formaction=\"L1/items/I2/toggle\""))
    XCTAssertTrue(html.contains("aria-pressed=\"false\"") && html.contains("aria-pressed=\"true\""))
    // One token for the rows' form, one for the add-item form.
    XCTAssertEqual(html.components(separatedBy: "name=\"csrf\" value=\"0123abcd\"").count - 1, 2)
    XCTAssertTrue(html.contains("maxlength=\"200\""))
    XCTAssertFalse(html.contains("No items yet"))
    // Standalone section and partial lines leave no blank lines behind.
    XCTAssertFalse(html.contains("\n\n"))
  }

  func testRendersAnEmptyChecklistWithHiddenItems() throws {
    let html = try library().render(
      "checklist",
      context: [
        "list": ["id": "L1", "name": "Trips", "icon": ["svg": ""]], "hasItems": false, "items": [],
        "hiddenSummary": "2 checked items hidden", "csrf": "t", "limits": ["itemText": 200],
      ])
    XCTAssertTrue(html.contains("<p class=\"empty\">Every item is checked.</p>"))
    XCTAssertTrue(html.contains("<p class=\"hidden-summary\">2 checked items hidden. "))
    XCTAssertFalse(html.contains("<ul"))
  }

  func testRendersThePageInTheLayout() throws {
    let library = try library()
    let content = try library.render("checklist", context: Self.checklist)
    let page = try library.render(
      "layout",
      context: [
        "title": "Groceries & more", "content": .string(content),
        "assets": ["css": "/static/style.abc.css", "js": "/static/app.abc.js"],
      ])
    XCTAssertTrue(page.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
    XCTAssertTrue(page.contains("<title>Groceries &amp; more · Checklists</title>"))
    XCTAssertTrue(page.contains("<main id=\"main\" tabindex=\"-1\">\n" + content + "\n</main>"))
    XCTAssertTrue(page.contains("<script src=\"/static/app.abc.js\" defer></script>"))
    XCTAssertFalse(page.contains("{{"))
  }

  /// One library serves every request thread: rendering shares nothing mutable.
  func testRendersFromManyThreadsAtOnce() throws {
    let library = try library()
    let expected = try library.render("checklist", context: Self.checklist)
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      results.add((try? library.render("checklist", context: Self.checklist)) == expected)
    }
    XCTAssertEqual(results.outcomes, Array(repeating: true, count: 64))
  }

  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    func add(_ value: Bool) { lock.withLock { values.append(value) } }
    var outcomes: [Bool] { lock.withLock { values } }
  }

  func testRendersEveryOtherScreen() throws {
    let library = try library()
    let icons: TemplateValue = [
      ["name": "folder", "label": "Folder", "svg": "<svg/>", "checked": true],
      ["name": "trips", "label": "Trips", "svg": "<svg/>", "checked": false],
    ]
    let screens: [(String, TemplateValue, String)] = [
      (
        "all-lists",
        [
          "hasLists": true,
          "lists": [["id": "L1", "name": "A<b>", "subtitle": "2 Remaining", "icon": ["svg": ""]]],
        ],
        "<span class=\"row-title\">A&lt;b&gt;</span> <span class=\"row-subtitle\">2 Remaining</span>"
      ),
      ("all-lists", ["hasLists": false, "lists": []], "No lists yet."),
      (
        "list-form",
        ["name": "", "icons": icons, "csrf": "t", "limits": ["listName": 100]],
        "<h1>New List</h1>"
      ),
      (
        "list-form",
        [
          "list": ["id": "L1", "name": "Old"], "name": "New\"", "error": "Too long.",
          "icons": icons,
          "csrf": "t", "limits": ["listName": 100],
        ],
        "value=\"New&quot;\" required maxlength=\"100\" autocomplete=\"off\" aria-invalid=\"true\""
      ),
      (
        "item-form",
        [
          "list": ["id": "L1", "name": "N"], "item": ["id": "I1"], "text": "x", "csrf": "t",
          "limits": ["itemText": 200],
        ], "action=\"/lists/L1/items/I1/delete\""
      ),
      (
        "settings",
        [
          "openLastList": true, "hideCheckedItems": false, "notice": "Settings saved.", "csrf": "t",
        ],
        "name=\"OpenLastList\" value=\"on\" checked aria-describedby"
      ),
      (
        "error",
        [
          "title": "List not found", "status": 404, "message": "Gone.",
          "back": ["href": "/lists", "label": "All Lists"],
        ], "<p class=\"status\">Error 404</p>"
      ),
    ]
    for (name, context, expected) in screens {
      let html = try library.render(name, context: context)
      XCTAssertTrue(html.contains(expected), "\(name) lacks \(expected):\n\(html)")
      XCTAssertFalse(html.contains("{{"), name)
    }
  }
}

/// `render(_:context:inLayout:context:)` renders the same page as the screen passed as a String.
final class LayoutEmbeddingTests: XCTestCase {
  func testTheScreenInTheLayoutIsThePageOfTheSimpleWay() throws {
    let library = try RealTemplatesTests.library.get()
    let layout: TemplateValue = ["title": "T", "assets": ["css": "/a.css", "js": "/a.js"]]
    let screen = try library.render("checklist", context: RealTemplatesTests.checklist)
    var simple = layout
    if case .object(var object) = simple {
      object["content"] = .string(screen)
      simple = .object(object)
    }
    let expected = try library.render("layout", context: simple)
    var buffer = Array("prefix|".utf8)
    try library.render(
      "checklist", context: RealTemplatesTests.checklist, inLayout: "layout", context: layout,
      into: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "prefix|" + expected)
  }

  func testTheScreenSeesOnlyItsOwnContextAndItsOwnContentKey() throws {
    let library = try TemplateLibrary(templates: [
      "page": "<main>{{{content}}}</main>{{title}}", "screen": "{{title}}/{{content}}/{{x}}",
    ])
    var buffer: [UInt8] = []
    try library.render(
      "screen", context: ["content": "<c>", "x": 1], inLayout: "page",
      context: ["title": "T", "x": 2], into: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "<main>/&lt;c&gt;/1</main>T")
  }

  func testAnEscapedSlotEscapesTheScreen() throws {
    let library = try TemplateLibrary(templates: ["page": "[{{body}}]", "screen": "<b>{{x}}</b>"])
    var buffer: [UInt8] = []
    try library.render(
      "screen", context: ["x": "&"], inLayout: "page", context: [:], slot: "body", into: &buffer)
    XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "[&lt;b&gt;&amp;amp;&lt;/b&gt;]")
  }

  func testUnknownNamesThrow() throws {
    let library = try TemplateLibrary(templates: ["page": "{{{content}}}"])
    var buffer: [UInt8] = []
    XCTAssertThrowsError(
      try library.render("nope", context: [:], inLayout: "page", context: [:], into: &buffer))
    XCTAssertThrowsError(
      try library.render("page", context: [:], inLayout: "nope", context: [:], into: &buffer))
  }
}
