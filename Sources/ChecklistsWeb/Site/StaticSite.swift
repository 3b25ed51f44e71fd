import FileSystem
import Foundation
import HTMLTemplates

/// The pages nginx serves by itself (404, 429, 50x, about), rendered from the same
/// layout as the dynamic ones: the `404` and `50x` pages it shows when a
/// file is missing or the backend is down, the `429` page when a client
/// address sends more changes than `limit_req` allows, the `413` page of an
/// import whose file is larger than the import's location takes, and the
/// about page.
package struct StaticSite: Sendable {
  /// A page: its file name in `Public/` and its bytes.
  package struct Page: Sendable {
    package var file: String
    package var bytes: [UInt8]
  }

  let renderer: PageRenderer

  package init(templatesDirectory: String, publicDirectory: String) throws {
    renderer = PageRenderer(
      templates: try TemplateLibrary(directory: templatesDirectory),
      assets: try Assets(publicDirectory: publicDirectory))
  }

  /// nginx's `413` page at the import's address (`nginx.conf`).
  package static let importTooLargeFile = "413-import.html"

  package func pages() throws -> [Page] {
    let notFound = WebError.pageNotFound
    let unavailable = WebError(
      status: .serviceUnavailable, title: "Checklists is unavailable",
      message:
        "The server is restarting or stopped. Your lists are safe: nothing you saved is lost. Try again in a moment.",
      backHref: "/lists", backLabel: "Try again")
    let tooManyChanges = WebError(
      status: .tooManyRequests, title: "Too many changes at once",
      message:
        "This address sent more changes in a short time than this site accepts, so this one was not saved. Nothing you saved before is lost. Wait a few seconds and try again.",
      backHref: "/lists", backLabel: "Back to your lists")
    let importTooLarge = WebError(
      status: .contentTooLarge, title: "File too large",
      message:
        "That file is larger than \(ImportScreen.maximumSizeText), the most an import takes. Nothing was changed.",
      backHref: ImportScreen.path, backLabel: "Import")
    return [
      Page(file: "404.html", bytes: try renderer.errorPage(notFound)),
      Page(file: Self.importTooLargeFile, bytes: try renderer.errorPage(importTooLarge)),
      Page(file: "429.html", bytes: try renderer.errorPage(tooManyChanges)),
      Page(file: "50x.html", bytes: try renderer.errorPage(unavailable, showStatus: false)),
      Page(
        file: "about.html",
        bytes: try renderer.render("about", title: "About", context: .object(TemplateObject([:])))),
    ]
  }

  /// Writes every page into `directory` (mode 0644: nginx's workers read them).
  package func write(into directory: String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var written: [String] = []
    for page in try pages() {
      let path = "\(directory)/\(page.file)"
      try AtomicFile.write(page.bytes, to: path, durable: false, permissions: 0o644)
      written.append(path)
    }
    return written
  }
}
