import ArgumentParser
import Foundation
import Storage

/// `checklists generate`: writes the static pages nginx shows by itself.
struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Write the static pages (404, 50x) into the public directory.")

  @Option(help: "The public directory nginx serves.")
  var `public`: String = "Public"

  func run() throws {
    try FileManager.default.createDirectory(atPath: `public`, withIntermediateDirectories: true)
    for page in SkeletonSite.staticPages {
      try AtomicFile.write(
        Array(page.html.utf8), to: "\(`public`)/\(page.file)", durable: false, permissions: 0o644)
      print("wrote \(`public`)/\(page.file)")
    }
  }
}
