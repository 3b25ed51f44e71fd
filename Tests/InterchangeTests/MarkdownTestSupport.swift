import ChecklistsModel
import Foundation
import Interchange
import TestSupport

/// Texts that Markdown would read as something else if written as they are.
enum HostileTexts {
  static let punctuation = Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~").map(String.init)

  static let all: [String] =
    punctuation
    + punctuation.flatMap { [$0 + $0, $0 + $0 + $0, String(repeating: $0, count: 7)] }
    + punctuation.flatMap { ["a\($0)b\($0)c", "\($0)a\($0)", "\($0) \($0) \($0)", "x \($0)"] }
    + [
      String(Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")),
      String(Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~").reversed()),
      "# not a heading", "#hashtag", "### x ###", "C# and F#", "ends with #", "a #",
      "1. one", "1) one", "123456789. nine digits", "1234567890. ten digits", "2024.01.05",
      "0. zero", "1.", "- dash", "-", "+ plus", "* star", "> quote", ">", "---", "***", "___",
      "- - -", "===", "= x", "[ ] box", "[x] done", "[X]", "Call [x] Corp", "- [ ] nested",
      "trailing spaces   ", "   leading spaces", "inner    spaces", "tab\tinside",
      "🛒 Milk 🥛", "🇫🇷🇩🇪", "👨‍👩‍👧‍👦 family", "👍🏽", "e\u{301}te\u{301}", "क्षि", "日本語の本",
      "a\u{00A0}b", "\u{00A0}nbsp first", "nbsp last\u{00A0}", "a\u{3000}b", "a\u{2028}b",
      "zero\u{200B}width", "prepended mark and a space\u{0600} ", "\u{0600} x",
      "\u{FEFF}bom", "<b>bold</b>", "<!-- comment -->", "<br>", "<",
      "<http://example.com>", "<a@b.c>", "&amp;", "&lt;", "&#35;", "&copy;", "&nbsp;", "&",
      "&#x1F600;", "AT&T", "http://example.com/a_b_c", "https://x.example/z?q=1&r=2#f",
      "www.example.com", "WWW.EXAMPLE.COM", "www.a.com/__init__.py", "ftp://x/y",
      "mailto:a@b.c", "a@b.com", "user_name@ex-ample.com", "xmpp:a@b.c", "see http://x.y.",
      "(www.example.com)", "*www.example.com*", "~www.a.b~", "http://a.b/\\_c_", "\\",
      "\\\\", "C:\\path\\to\\file", "\\*not\\*", "ends with \\", "\\n", "![img](x.png)",
      "[link](url)", "[ref]", "[^1]", "`code`", "``", "~~strike~~", "~one~", "a | b | c",
      "| a |", "**bold** _it_", "snake_case_name", "2*3*4", "a_b_c", "__init__", "$x$",
      "{{mustache}}", "::", "://", "http:", "https:/", "foo: //bar", "---\n===",
      "line\nbreak", "cr\rhere", String(repeating: "*", count: 1_000),
      String(repeating: "[", count: 500) + String(repeating: "]", count: 500),
    ]

  /// Texts of random printable ASCII and a few others, from `generator`.
  static func random(_ count: Int, using generator: inout SeededGenerator) -> [String] {
    let alphabet =
      Array(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCwxyz[\\]^_`{|}~") + ["é", "\u{00A0}", "🥛"]
    return (0..<count).map { _ in
      String(
        (0..<Int.random(in: 1...12, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator)!
        })
    }
  }
}

/// A model built from lists as the import adds them (texts cleaned).
func model(_ lists: [ImportedList]) throws -> DataModel {
  var model = DataModel()
  try model.addImported(lists)
  return model
}

/// What a Markdown task list can carry of a model: names, texts, checkmarks,
/// notes, order.
func taskLists(_ model: DataModel) -> [ImportedList] {
  model.lists.map { list in
    ImportedList(
      name: list.name,
      items: list.items.map { ImportedItem(text: $0.text, checked: $0.checked, notes: $0.notes) })
  }
}

/// The `cmark-gfm` command (Debian package cmark-gfm), GitHub's reference renderer.
enum CMarkGFMCommand {
  struct Missing: Error, CustomStringConvertible {
    var description: String {
      "cmark-gfm is not installed: the Markdown rendering test needs it "
        + "(Debian package cmark-gfm; `scripts/install-deps test` installs it)"
    }
  }

  struct Failed: Error, CustomStringConvertible {
    var status: Int32
    var errors: String
    var description: String { "cmark-gfm exited with \(status): \(errors)" }
  }

  /// Renders `markdown` to HTML with the given extensions.
  static func html(_ markdown: [UInt8], extensions: [String]) throws -> String {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    guard
      let path = directories.map({ "\($0)/cmark-gfm" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { throw Missing() }
    let directory = TemporaryDirectory("markdown")
    let input = directory.appending("in.md")
    let output = directory.appending("out.html")
    let errors = directory.appending("errors.txt")
    _ = FileManager.default.createFile(atPath: input, contents: Data(markdown))
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    let errorsHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    defer {
      try? outputHandle.close()
      try? errorsHandle.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = extensions.flatMap { ["-e", $0] } + [input]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outputHandle
    process.standardError = errorsHandle
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        status: process.terminationStatus,
        errors: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  /// HTML escaping as cmark-gfm does it in text.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
