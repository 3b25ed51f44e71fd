import Foundation
import Testing

/// The static front end in `Public/` keeps to the Content-Security-Policy
/// and the product's look: own resources only, icons that take the text
/// colour, a stylesheet for light and dark, a script without eval.
@Suite struct PublicAssetsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Public")
  /// The ten icons of the original app, as file names.
  static let icons = [
    "no-icon", "appointments", "birthdays", "chores", "drinks", "folder", "groceries", "inbox",
    "photos", "trips",
  ]

  static func file(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test(arguments: icons) func eachIconIsASmallSVGInTheTextColour(name: String) throws {
    let svg = try Self.file("icons/\(name).svg")
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\""))
    #expect(svg.contains("stroke=\"currentColor\""))
    #expect(svg.contains("aria-hidden=\"true\""))
    #expect(svg.hasSuffix("</svg>\n"))
    #expect(svg.utf8.count < 1_024, "inlined in every row, so kept small")
    for forbidden in ["<script", "href", "style", "<image"] {
      #expect(!svg.contains(forbidden), "\(name) contains \(forbidden)")
    }
    #expect(svg.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
    // Drawn in the text colour, never a fixed one, so dark mode and forced colours work.
    #expect(svg.range(of: "#[0-9a-fA-F]{3,6}", options: .regularExpression) == nil)
  }

  @Test func theStylesheetUsesNoExternalResources() throws {
    let css = try Self.file("style.css")
    #expect(!css.contains("@import"))
    // Only the product's own glyphs and icons, by absolute path with a version.
    let urls = css.matches(of: /url\(([^)]*)\)/).map { String($0.output.1) }
    #expect(!urls.isEmpty)
    for url in urls {
      #expect(url.wholeMatch(of: /"\/(ui|icons)\/[a-z-]+\.svg\?v=\d+"/) != nil, "\(url)")
      let name = url.dropFirst(2).prefix { $0 != "?" }
      #expect(
        FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(String(name)).path),
        "\(name)")
    }
    #expect(!css.contains("http:") && !css.contains("https:"))
  }

  @Test func theStylesheetFollowsTheSystemAndShowsFocus() throws {
    let css = try Self.file("style.css")
    for part in [
      "@media (prefers-color-scheme: dark)", ":focus-visible", "font-family: system-ui",
      "--tap: 44px", "font-size: 1rem", "@media (forced-colors: active)",
      ".check[aria-pressed=\"true\"]", ".visually-hidden",
    ] {
      #expect(css.contains(part), "style.css lacks \(part)")
    }
  }

  @Test(arguments: ["app.js", "queue.js", "sw.js"]) func noScriptNeedsWhatThePolicyForbids(
    name: String
  ) throws {
    let js = try Self.file(name)
    for forbidden in [
      "eval(", "new Function", "innerHTML", "document.write", "setTimeout(\"", "http:", "https:",
    ] {
      #expect(!js.contains(forbidden), "\(name) uses \(forbidden)")
    }
  }

  /// The pages and the service worker open the offline queue's database
  /// with one piece of code, never two that could disagree on its shape.
  @Test func theQueueDatabaseIsOpenedInOnePlace() throws {
    #expect(try Self.file("queue.js").contains("indexedDB.open("))
    for name in ["app.js", "sw.js"] {
      #expect(!(try Self.file(name).contains("indexedDB.open(")), "\(name) opens the queue itself")
    }
    #expect(try Self.file("sw.js").contains("importScripts(\"/queue.js\""))
  }

  @Test func theScriptFallsBackToAnOrdinarySubmission() throws {
    let js = try Self.file("app.js")
    // It sends the urlencoded body the backend accepts, and falls back to an ordinary submission.
    #expect(js.contains("new URLSearchParams(new FormData(form))"))
    #expect(js.contains("redirect: \"follow\""))
    #expect(js.contains("HTMLFormElement.prototype.submit.call(form)"))
    #expect(js.contains("parseFromString(page.html, \"text/html\")"))
  }

  /// A checklist's heading draws its icon from the stylesheet: every icon
  /// but No Icon has its class there.
  @Test(arguments: icons.filter { $0 != "no-icon" }) func eachIconHasAHeadingClass(name: String)
    throws
  {
    let css = try Self.file("style.css")
    #expect(css.contains(".i-\(name) {\n  --glyph: url(\"/icons/\(name).svg?v=1\");\n}"))
  }

  @Test func theFaviconIsOwnSVG() throws {
    let svg = try Self.file("favicon.svg")
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(!svg.contains("<script"))
  }
}
