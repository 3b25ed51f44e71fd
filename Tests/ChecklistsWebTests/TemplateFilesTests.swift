import Foundation
import Testing

/// The files under `Templates/` keep the promises the handlers rely on:
/// logic-less Mustache that parses, a CSRF field in every form, raw output
/// only for trusted markup, nothing the Content-Security-Policy would block.
@Suite struct TemplateFilesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let names = [
    "layout", "all-lists", "checklist", "list-form", "item-form", "settings", "error", "list-row",
    "item-row", "csrf-field", "undo-notice", "recently-deleted", "reorder", "shared-layout",
    "shared-list", "shared-row", "shared-item-form", "export", "import", "import-preview",
  ]
  /// The only keys ever inserted raw: the screen inside the layout, icon markup from
  /// Public/icons, and Settings' zone options (the server's own zone names, escaped by
  /// `TimeZoneSelect`).
  static let rawKeys: Set<String> = [
    "content", "phrases", "icon.svg", "list.icon.svg", "svg", "timeZoneOptions", "rows",
  ]

  static func template(_ name: String) throws -> String {
    try String(
      contentsOf: root.appendingPathComponent("Templates/\(name).mustache"), encoding: .utf8)
  }

  /// The Mustache tags of a template, as (sigil, name) pairs: `#`, `^`, `/`, `>`, `!`, `{`, `&` or "".
  static func tags(_ text: String) -> [(sigil: String, name: String)] {
    var tags: [(String, String)] = []
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      let triple = rest[open.upperBound...].hasPrefix("{")
      let closing = triple ? "}}}" : "}}"
      guard let close = rest.range(of: closing, range: open.upperBound..<rest.endIndex) else {
        tags.append(("unclosed", String(rest[open.lowerBound...].prefix(30))))
        break
      }
      var body = rest[open.upperBound..<close.lowerBound]
      var sigil = ""
      if triple {
        sigil = "{"
        body = body.dropFirst()
      } else if let first = body.first, "#^/>!&".contains(first) {
        sigil = String(first)
        body = body.dropFirst()
      }
      tags.append((sigil, body.trimmingCharacters(in: .whitespacesAndNewlines)))
      rest = rest[close.upperBound...]
    }
    return tags
  }

  @Test(arguments: names) func startsWithACommentListingItsKeys(name: String) throws {
    let text = try Self.template(name)
    #expect(text.hasPrefix("{{!"))
    let comment = try #require(Self.tags(text).first)
    #expect(comment.sigil == "!")
    #expect(comment.name.contains("Context keys:"))
  }

  @Test(arguments: names) func sectionsBalanceAndPartialsExist(name: String) throws {
    var open: [String] = []
    for tag in Self.tags(try Self.template(name)) {
      switch tag.sigil {
      case "unclosed": Issue.record("unclosed tag \(tag.name)")
      case "#", "^": open.append(tag.name)
      case "/":
        #expect(open.popLast() == tag.name, "\(name): {{/\(tag.name)}} closes the wrong section")
      case ">":
        #expect(Self.names.contains(tag.name), "\(name): no partial \(tag.name)")
      case "{", "&":
        // `.` is raw only as the item of a section of server-made HTML ("rows").
        let raw = tag.name == "." ? open.last ?? "." : tag.name
        #expect(Self.rawKeys.contains(raw), "\(name): \(tag.name) is inserted raw")
      default: break
      }
    }
    #expect(open.isEmpty, "\(name): unclosed sections \(open)")
  }

  @Test(arguments: names) func everyFormPostsWithACSRFField(name: String) throws {
    let text = try Self.template(name)
    let forms = text.components(separatedBy: "<form").dropFirst()
    for form in forms {
      let body = try #require(form.components(separatedBy: "</form>").first)
      // The search form is a GET that changes nothing: no token to carry.
      if body.hasPrefix(#" class="search" method="get" action="/search""#) { continue }
      #expect(
        body.hasPrefix(" ") && body.contains("method=\"post\""), "\(name): a form without POST")
      #expect(body.contains("{{> csrf-field}}"), "\(name): a form without the CSRF field")
    }
  }

  @Test func theCSRFFieldIsHiddenAndNamedCsrf() throws {
    let text = try Self.template("csrf-field")
    #expect(text.contains("<input type=\"hidden\" name=\"csrf\" value=\"{{csrf}}\">"))
  }

  @Test(arguments: names) func nothingTheContentSecurityPolicyWouldBlock(name: String) throws {
    let text = try Self.template(name)
    #expect(!text.contains(" style="), "\(name): inline style")
    #expect(!text.contains("<style"), "\(name): style element")
    #expect(!text.contains("javascript:"), "\(name): javascript URL")
    #expect(text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(name): handler")
    #expect(!text.contains("http:") && !text.contains("https:"), "\(name): an external address")
    // The one script and its phrases, each a file of the site's own.
    for script in text.components(separatedBy: "<script").dropFirst() {
      #expect(
        script.hasPrefix(" src=\"{{assets.js}}\" data-queue=\"{{assets.queue}}\" defer></script>")
          || script.hasPrefix(" src=\"{{phrases}}\" defer></script>"),
        "\(name): inline script")
    }
  }

  @Test func theLayoutIsAnAccessiblePageShell() throws {
    let text = try Self.template("layout")
    for part in [
      "<!doctype html>", "<html lang=\"{{lang}}\"{{#rtl}} dir=\"rtl\"{{/rtl}}>",
      "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>{{title}}", "href=\"{{assets.css}}\"",
      "<script src=\"{{assets.js}}\" data-queue=\"{{assets.queue}}\" defer></script>",
      "<link rel=\"apple-touch-icon\" href=\"{{assets.touchIcon}}\">",
      "<main id=\"main\"", "{{{content}}}", "</main>",
    ] {
      #expect(text.contains(part), "layout lacks \(part)")
    }
  }

  /// A shared page keeps to its list: the shell has no navigation, and no
  /// template it is made of leads to the owner's screens.
  @Test func sharedPagesLeadNowhereButTheirList() throws {
    let layout = try Self.template("shared-layout")
    for part in [
      "<!doctype html>", "<html lang=\"{{lang}}\"{{#rtl}} dir=\"rtl\"{{/rtl}}>",
      "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>{{title}}", "href=\"{{assets.css}}\"",
      "<script src=\"{{assets.js}}\" data-queue=\"{{assets.queue}}\" defer></script>",
      "<main id=\"main\" tabindex=\"-1\">", "{{{content}}}", "</main>",
    ] {
      #expect(layout.contains(part), "shared-layout lacks \(part)")
    }
    for name in ["shared-layout", "shared-list", "shared-row", "shared-item-form", "item-row"] {
      let text = try Self.template(name)
      for owners in ["\"/lists", "\"/settings", "\"/deleted", "\"/calendar", "<nav"] {
        #expect(!text.contains(owners), "\(name) has \(owners)")
      }
    }
    // A read-only link's rows have nothing to press.
    let row = try Self.template("shared-row")
    #expect(!row.contains("<button") && !row.contains("<a ") && !row.contains("<form"))
  }

  @Test func theToggleIsARealButtonWithItsState() throws {
    let text = try Self.template("item-row")
    #expect(
      text.contains(
        "<button class=check {{#repeats}}formaction=\"{{list.id}}/items/{{id}}/toggle{{dueQuery}}\"{{/repeats}}{{^repeats}}formaction={{list.id}}/items/{{id}}/toggle{{/repeats}} {{#checked}}aria-pressed=true name=check value=0{{/checked}}{{^checked}}aria-pressed=false name=check value=1{{/checked}}>{{text}}</button>"
      ))
    // Relative to the page's address, /lists/ID.
    #expect(
      text.contains(
        "<button formaction={{list.id}}/items/{{id}}/delete aria-label=\"[[Delete {{text}}]]\"></button></li>"
      ))
    #expect(
      text.contains("<a href={{list.id}}/items/{{id}}/edit aria-label=\"[[Edit {{text}}]]\"></a>"))
    // The rows' buttons post through the checklist's one form, which has the token.
    let checklist = try Self.template("checklist")
    let form = try #require(checklist.range(of: "<form class=\"item-rows\" method=\"post\""))
    let end = try #require(
      checklist.range(of: "</form>", range: form.upperBound..<checklist.endIndex))
    let inside = checklist[form.upperBound..<end.lowerBound]
    // Its rows are item-row partials the server rendered (RowFragments).
    #expect(inside.contains("{{> csrf-field}}") && inside.contains("{{#rows}}{{{.}}}{{/rows}}"))
  }

  @Test func formsPostToTheSpecifiedAddressesWithTheSpecifiedFields() throws {
    let checklist = try Self.template("checklist")
    #expect(checklist.contains("action=\"/lists/{{list.id}}/items\""))
    #expect(checklist.contains("name=\"text\""))
    // The add form sends the state it was rendered in, so a re-sent add adds nothing.
    #expect(
      checklist.contains("<input type=\"hidden\" name=\"nonce\" value=\"{{addNonce}}\" data-live>"))
    let listForm = try Self.template("list-form")
    #expect(listForm.contains("action=\"/lists{{#list}}/{{list.id}}{{/list}}\""))
    #expect(listForm.contains("name=\"name\"") && listForm.contains("type=\"radio\" name=\"icon\""))
    #expect(listForm.contains("action=\"/lists/{{list.id}}/delete\""))
    let itemForm = try Self.template("item-form")
    #expect(itemForm.contains("action=\"/lists/{{list.id}}/items/{{item.id}}\""))
    #expect(itemForm.contains("action=\"/lists/{{list.id}}/items/{{item.id}}/delete\""))
    let itemRow = try Self.template("item-row")
    #expect(itemRow.contains("formaction={{list.id}}/items/{{id}}/delete "))
    let settings = try Self.template("settings")
    #expect(
      settings.contains("action=\"/settings\"") && settings.contains("action=\"/settings/reset\""))
    #expect(
      settings.contains("name=\"OpenLastList\"") && settings.contains("name=\"HideCheckedItems\""))
  }

  @Test func everyScreenLinksBack() throws {
    for name in ["checklist", "list-form", "item-form", "settings", "recently-deleted"] {
      #expect(try Self.template(name).contains("<p class=\"back\"><a href="), "\(name)")
    }
    #expect(try Self.template("error").contains("href=\"{{back.href}}\">{{back.label}}</a>"))
  }
}
