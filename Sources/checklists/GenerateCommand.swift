import ArgumentParser
import ChecklistsWeb

/// `checklists generate`: writes the static pages nginx shows by itself, and
/// the installed app's icons and manifest (`rsvg-convert`, librsvg2-bin).
struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract:
      "Write the static pages (404, 413 of an import, 429, 50x, about), the app's icons and "
      + "its manifest into the public directory.")

  @Option(help: "The public directory nginx serves.")
  var `public`: String = "Public"

  @Option(help: "The Mustache templates.")
  var templates: String = "Templates"

  func run() throws {
    let site = try StaticSite(templatesDirectory: templates, publicDirectory: `public`)
    for path in try site.write(into: `public`) {
      print("wrote \(path)")
    }
  }
}
