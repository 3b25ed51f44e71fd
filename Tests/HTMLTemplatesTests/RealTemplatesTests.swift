import Foundation
import HTMLTemplates
import TestSupport
import Testing

/// The app's own `Templates/` directory loads, links and renders every screen.
@Suite("The app's own templates")
struct RealTemplatesTests {
  static let directory = BuiltTool.packageRoot + "/Templates"

  static let library = Result { try TemplateLibrary(directory: directory) }

  func library() throws -> TemplateLibrary { try Self.library.get() }

  /// The checklist's context, its rows rendered by `item-row` one by one
  /// (`renderEach`), as the screen's kept rows are.
  func checklist() throws -> TemplateValue {
    let (bytes, ends) = try library().renderEach(
      "item-row", Self.checklistItems, in: ["list": ["id": "L1"]])
    var rows: [TemplateValue] = []
    var start = 0
    for end in ends {
      rows.append(.html(Array(bytes[start..<end])))
      start = end
    }
    guard case .object(var values) = Self.checklist else { return Self.checklist }
    values.append(TemplateKey("rows"), .list(rows))
    return .object(values)
  }

  static let checklistItems: [TemplateValue] = [
    [
      "id": "I1", "text": "<script>alert(1)</script>", "checked": false,
      "due": ["iso": "2030-05-12T12:00Z", "label": "12 May 2030", "overdue": false],
    ],
    [
      "id": "I2", "text": "Crème fraîche \"bio\"", "checked": true,
      "due": ["iso": "2001-05-12T12:00Z", "label": "12 May 2001", "overdue": true],
    ],
  ]

  static let checklist: TemplateValue = [
    "list": ["id": "L1", "name": "Groceries & more", "glyph": "groceries"],
    "hasAnyItems": true,
    "hasItems": true,
    "sort": ["offerDueDate": true],
    "moves": true,
    "canCheckAll": true,
    "csrf": "0123abcd",
    "addNonce": 7,
    "limits": ["itemText": 200],
  ]

  @Test("Every template loads")
  func loadsEveryTemplate() throws {
    #expect(
      try library().names == [
        "about", "all-lists", "checklist", "csrf-field", "devices", "devices-sign-out", "error",
        "export", "import", "import-preview", "item-form", "item-row", "layout", "link",
        "list-form", "list-row", "recently-deleted", "reorder", "search", "settings",
        "shared-item-form", "shared-layout", "shared-list", "shared-row", "undo-notice",
      ])
  }

  /// A shared list: read-only, its rows say their state in words and there
  /// is no form; by an edit link, the owner's rows under the token's
  /// addresses and the add form, each with the link's token.
  @Test("A shared list renders read-only without a form, editable with the link's")
  func rendersASharedList() throws {
    var values: [String: TemplateValue] = [
      "list": ["id": "0123456789abcdef0123456789abcdef", "name": "Groceries & more"],
      "token": "0123456789abcdef0123456789abcdef",
      "hasItems": true,
      "items": [
        ["id": "I1", "text": "<script>alert(1)</script>", "checked": false],
        [
          "id": "I2", "text": "Crème fraîche", "checked": true,
          "due": ["iso": "2001-05-12T12:00Z", "label": "12 May 2001", "overdue": true],
        ],
      ],
      "hasDates": true,
      "timeZone": "Europe/Berlin",
    ]
    let readOnly = try library().render(
      "shared-list", context: .object(TemplateObject(values)))
    #expect(!readOnly.contains("<form") && !readOnly.contains("<button"))
    #expect(
      readOnly.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !readOnly.contains("<script>"))
    #expect(
      readOnly.contains(
        "<span class=\"check done\"><span class=\"visually-hidden\">Checked: </span>Crème"))
    #expect(readOnly.contains("Times are in Europe/Berlin."))
    #expect(
      readOnly.contains(
        "<time class=late datetime=2001-05-12T12:00Z>Overdue, 12 May 2001</time>"))
    values["edit"] = ["csrf": "feed", "addNonce": 9, "limits": ["itemText": 200]]
    let editable = try library().render(
      "shared-list", context: .object(TemplateObject(values)))
    #expect(editable.contains("action=\"/s/0123456789abcdef0123456789abcdef/items\""))
    #expect(editable.contains("formaction=0123456789abcdef0123456789abcdef/items/I1/toggle "))
    #expect(editable.components(separatedBy: "name=\"csrf\" value=\"feed\"").count - 1 == 2)
    #expect(editable.contains("<input type=\"hidden\" name=\"nonce\" value=\"9\" data-live>"))
    #expect(!editable.contains("href=\"/lists"))
  }

  @Test("The checklist renders, escaping the items' text")
  func rendersTheChecklistEscapingItemText() throws {
    let html = try library().render("checklist", context: try checklist())
    #expect(!html.contains("{{"))
    #expect(!html.contains("}}"))
    #expect(
      html.contains(
        "aria-pressed=false name=check value=1>&lt;script&gt;alert(1)&lt;/script&gt;</button>"
      ))
    // Each toggle asks for the state it wants, the opposite of the one shown.
    #expect(html.contains("aria-pressed=true name=check value=0>Crème"))
    #expect(html.contains("<input type=\"hidden\" name=\"nonce\" value=\"7\" data-live>"))
    #expect(!html.contains("<script>"))
    #expect(html.contains("Crème fraîche &quot;bio&quot;"))
    #expect(
      html.contains("<h1><span class=\"list-icon i-groceries\"></span>Groceries &amp; more</h1>"))
    // A due date in a <time>; an overdue one says so in words.
    #expect(
      html.contains(
        "</button><time datetime=2030-05-12T12:00Z>12 May 2030</time><a href="))
    #expect(
      html.contains(
        "<time class=late datetime=2001-05-12T12:00Z>Overdue, 12 May 2001</time>"))
    // The list's buttons post through the rows' form.
    #expect(
      html.contains(
        "<p class=\"bar\"><button formaction=\"L1/sort\" name=\"sort\" value=\"dueDate\">Sort by due date</button><a href=\"L1/reorder\">Reorder</a><button formaction=\"L1/check-all\">Check all</button></p>"
      ))
    // Names inside a row that the row lacks come from the enclosing context.
    #expect(html.contains("formaction=L1/items/I1/toggle "))
    #expect(html.contains("<li><button class=check formaction=L1/items/I2/toggle "))
    #expect(html.contains("aria-pressed=false") && html.contains("aria-pressed=true"))
    // One token for the rows' form, one for the add-item form.
    #expect(html.components(separatedBy: "name=\"csrf\" value=\"0123abcd\"").count - 1 == 2)
    #expect(html.contains("maxlength=\"200\""))
    #expect(!html.contains("No items yet"))
    // Standalone section and partial lines leave no blank lines behind.
    #expect(!html.contains("\n\n"))
  }

  @Test("An empty checklist whose items are hidden renders")
  func rendersAnEmptyChecklistWithHiddenItems() throws {
    let html = try library().render(
      "checklist",
      context: [
        "list": ["id": "L1", "name": "Trips"], "hasAnyItems": true, "hasItems": false,
        "rows": [], "canUncheckAll": true, "hiddenSummary": "2 checked items hidden", "csrf": "t",
        "limits": ["itemText": 200],
      ])
    #expect(html.contains("<p class=\"empty\">Every item is checked.</p>"))
    #expect(html.contains("<button formaction=\"L1/uncheck-all\">Uncheck all</button>"))
    #expect(html.contains("<h1>Trips</h1>"))
    #expect(html.contains("<p class=\"hidden-summary\">2 checked items hidden. "))
    #expect(!html.contains("<ul"))
  }

  @Test("The page renders in the layout")
  func rendersThePageInTheLayout() throws {
    let library = try library()
    let content = try library.render("checklist", context: try checklist())
    let page = try library.render(
      "layout",
      context: [
        "title": "Groceries & more", "content": .string(content),
        "assets": [
          "css": "/static/style.abc.css", "js": "/static/app.abc.js", "queue": "/queue.js?v=abc",
        ], "lang": "en",
      ])
    #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
    #expect(page.contains("<title>Groceries &amp; more · Checklists</title>"))
    #expect(page.contains("<main id=\"main\" tabindex=\"-1\">\n" + content + "\n</main>"))
    let script = #"<script src="/static/app.abc.js" data-queue="/queue.js?v=abc" defer></script>"#
    #expect(page.contains(script))
    #expect(!page.contains("{{"))
  }

  /// One library serves every request thread: rendering shares nothing mutable.
  @Test("One library renders from many threads at once")
  func rendersFromManyThreadsAtOnce() throws {
    let library = try library()
    let expected = try library.render("checklist", context: try checklist())
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      results.add((try? library.render("checklist", context: try checklist())) == expected)
    }
    #expect(results.outcomes == Array(repeating: true, count: 64))
  }

  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    func add(_ value: Bool) { lock.withLock { values.append(value) } }
    var outcomes: [Bool] { lock.withLock { values } }
  }

  /// A screen, its context, and a piece of the HTML it must render.
  struct Screen: Sendable, CustomTestStringConvertible {
    let name: String
    let testDescription: String
    let context: TemplateValue
    let expected: String
  }

  static let icons: TemplateValue = [
    ["name": "folder", "label": "Folder", "svg": "<svg/>", "checked": true],
    ["name": "trips", "label": "Trips", "svg": "<svg/>", "checked": false],
  ]

  static let screens = [
    Screen(
      name: "all-lists", testDescription: "all-lists with a list",
      context: [
        "hasLists": true,
        "lists": [["id": "L1", "name": "A<b>", "subtitle": "2 Remaining", "icon": ["svg": ""]]],
      ],
      expected:
        "<span class=\"row-title\">A&lt;b&gt;</span> <span class=\"row-subtitle\">2 Remaining</span>"
    ),
    Screen(
      name: "all-lists", testDescription: "all-lists without lists",
      context: ["hasLists": false, "lists": []], expected: "No lists yet."),
    Screen(
      name: "list-form", testDescription: "list-form for a new list",
      context: ["name": "", "icons": icons, "csrf": "t", "limits": ["listName": 100]],
      expected: "<h1>New List</h1>"),
    Screen(
      name: "list-form", testDescription: "list-form of a list, with an error",
      context: [
        "list": ["id": "L1", "name": "Old"], "name": "New\"", "error": "Too long.",
        "icons": icons,
        "csrf": "t", "limits": ["listName": 100],
      ],
      expected:
        "value=\"New&quot;\" required maxlength=\"100\" autocomplete=\"off\" aria-invalid=\"true\""
    ),
    Screen(
      name: "item-form", testDescription: "item-form of an item",
      context: [
        "list": ["id": "L1", "name": "N"], "item": ["id": "I1"], "text": "x", "csrf": "t",
        "limits": ["itemText": 200],
      ], expected: "action=\"/lists/L1/items/I1/delete\""),
    Screen(
      name: "settings", testDescription: "settings with a notice",
      context: [
        "openLastList": true, "hideCheckedItems": false, "notice": "Settings saved.", "csrf": "t",
      ],
      expected: "name=\"OpenLastList\" value=\"on\" checked aria-describedby"),
    Screen(
      name: "error", testDescription: "error 404",
      context: [
        "title": "List not found", "status": 404, "message": "Gone.",
        "back": ["href": "/lists", "label": "All Lists"],
      ], expected: "<p class=\"status\">Error 404</p>"),
  ]

  @Test("Every other screen renders", arguments: screens)
  func rendersEveryOtherScreen(screen: Screen) throws {
    let html = try library().render(screen.name, context: screen.context)
    #expect(html.contains(screen.expected), "\(screen.name) lacks \(screen.expected):\n\(html)")
    #expect(!html.contains("{{"), "\(screen.name)")
  }
}

/// `render(_:context:inLayout:context:)` renders the same page as the screen passed as a String.
@Suite("A screen rendered inside a layout")
struct LayoutEmbeddingTests {
  @Test("The screen in the layout is the page of the simple way")
  func theScreenInTheLayoutIsThePageOfTheSimpleWay() throws {
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
    #expect(String(decoding: buffer, as: UTF8.self) == "prefix|" + expected)
  }

  @Test("The screen sees only its own context and its own content key")
  func theScreenSeesOnlyItsOwnContextAndItsOwnContentKey() throws {
    let library = try TemplateLibrary(templates: [
      "page": "<main>{{{content}}}</main>{{title}}", "screen": "{{title}}/{{content}}/{{x}}",
    ])
    var buffer: [UInt8] = []
    try library.render(
      "screen", context: ["content": "<c>", "x": 1], inLayout: "page",
      context: ["title": "T", "x": 2], into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "<main>/&lt;c&gt;/1</main>T")
  }

  @Test("An escaped slot escapes the screen")
  func anEscapedSlotEscapesTheScreen() throws {
    let library = try TemplateLibrary(templates: ["page": "[{{body}}]", "screen": "<b>{{x}}</b>"])
    var buffer: [UInt8] = []
    try library.render(
      "screen", context: ["x": "&"], inLayout: "page", context: [:], slot: "body", into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "[&lt;b&gt;&amp;amp;&lt;/b&gt;]")
  }

  @Test("An unknown screen or layout throws")
  func unknownNamesThrow() throws {
    let library = try TemplateLibrary(templates: ["page": "{{{content}}}"])
    var buffer: [UInt8] = []
    #expect(throws: (any Error).self) {
      try library.render("nope", context: [:], inLayout: "page", context: [:], into: &buffer)
    }
    #expect(throws: (any Error).self) {
      try library.render("page", context: [:], inLayout: "nope", context: [:], into: &buffer)
    }
  }
}
