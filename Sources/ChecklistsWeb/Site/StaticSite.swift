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
    renderer = try PageRenderer(
      templatesDirectory: templatesDirectory, publicDirectory: publicDirectory)
  }

  private init(renderer: PageRenderer) {
    self.renderer = renderer
  }

  /// nginx's `413` page at the import's address (`nginx.conf`).
  package static let importTooLargeFile = "413-import.html"

  /// Every page in English (`404.html`), then in each other language
  /// offered (`404.ru.html`), which nginx picks by `Accept-Language`.
  package func pages() throws -> [Page] {
    var pages: [Page] = []
    for language in Language.offered {
      let suffix = language == .english ? "" : ".\(language.tag)"
      pages += try self.pages(in: language).map { page in
        Page(file: page.file.replacingSuffix(".html", with: "\(suffix).html"), bytes: page.bytes)
      }
    }
    return pages
  }

  func pages(in language: Language) throws -> [Page] {
    let catalogue = renderer.translations[language]
    let notFound = WebError.pageNotFound
    let unavailable = WebError(
      status: .serviceUnavailable, title: translatable("Checklists is unavailable"),
      message: translatable(
        "The server is restarting or stopped. Your lists are safe: nothing you saved is lost. Try again in a moment."
      ),
      backHref: "/lists", backLabel: translatable("Try again"))
    let tooManyChanges = WebError(
      status: .tooManyRequests, title: translatable("Too many changes at once"),
      message: translatable(
        "This address sent more changes in a short time than this site accepts, so this one was not saved. Nothing you saved before is lost. Wait a few seconds and try again."
      ),
      backHref: "/lists", backLabel: translatable("Back to your lists"))
    let importTooLarge = WebError(
      status: .contentTooLarge, title: translatable("File too large"),
      message: catalogue.text(
        translatable(
          "That file is larger than {{size}}, the most an import takes. Nothing was changed."),
        [
          (
            "size",
            catalogue.text(
              translatable("{{count}} MB"),
              [("count", String(ImportScreen.maximumUploadBytes >> 20))])
          )
        ]),
      backHref: ImportScreen.path, backLabel: translatable("Import"))
    return [
      Page(file: "404.html", bytes: try renderer.errorPage(notFound, language: language)),
      Page(
        file: Self.importTooLargeFile,
        bytes: try renderer.errorPage(importTooLarge, language: language)),
      Page(file: "429.html", bytes: try renderer.errorPage(tooManyChanges, language: language)),
      Page(
        file: "50x.html",
        bytes: try renderer.errorPage(unavailable, showStatus: false, language: language)),
      Page(
        file: "about.html",
        bytes: try renderer.render(
          "about", title: catalogue.text(translatable("About")),
          context: .object(TemplateObject([:])), language: language)),
    ]
  }

  /// Writes every page into `directory` (mode 0644: nginx's workers read
  /// them), the installed app's icons and manifest (`AppIcons`), the
  /// script's phrases of each language (`ScriptPhrases`), then a
  /// gzipped copy beside every file worth it (`writeCompressed`).
  package func write(into directory: String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var written = try AppIcons(publicDirectory: directory).write()
    // The pages link the icons just drawn by their version.
    let drawn = StaticSite(
      renderer: PageRenderer(
        translations: renderer.translations, assets: try Assets(publicDirectory: directory)))
    for page in try drawn.pages() {
      let path = "\(directory)/\(page.file)"
      try AtomicFile.write(page.bytes, to: path, durable: false, permissions: 0o644)
      written.append(path)
    }
    // The script's phrases, every language's (the pseudo-locales' too:
    // their pages link theirs).
    for language in Language.allCases {
      let path = "\(directory)/\(ScriptPhrases.fileName(language))"
      let script = ScriptPhrases.script(renderer.translations[language])
      try AtomicFile.write(Array(script.utf8), to: path, durable: false, permissions: 0o644)
      written.append(path)
    }
    return written + (try Self.writeCompressed(in: directory))
  }

  /// The files nginx may send gzipped: text, which compresses to a
  /// fraction (`style.css` 17,380 bytes → 4,626, `app.js` 29,527 → 9,269);
  /// PNG and WOFF2 are compressed already.
  static let compressedExtensions: Set<String> = [
    "html", "css", "js", "svg", "txt", "webmanifest",
  ]

  /// Writes `NAME.gz` beside each file of `directory` and its folders whose
  /// extension is in `compressedExtensions`, for nginx's `gzip_static`:
  /// compressed once here at the smallest level, never per request. The
  /// bytes depend on the file alone (`Gzip`: no name, no time), so the
  /// same files give the same copies on every machine. A file that gzip
  /// does not make smaller gets no copy (and loses a stale one). Returns
  /// the paths written.
  static func writeCompressed(in directory: String) throws -> [String] {
    let files = FileManager.default.enumerator(atPath: directory)
    var written: [String] = []
    while let name = files?.nextObject() as? String {
      guard compressedExtensions.contains((name as NSString).pathExtension.lowercased()) else {
        continue
      }
      let path = "\(directory)/\(name)"
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let compressed = Gzip.compress(bytes)
      guard compressed.count < bytes.count else {
        try? FileManager.default.removeItem(atPath: path + ".gz")
        continue
      }
      try AtomicFile.write(compressed, to: path + ".gz", durable: false, permissions: 0o644)
      written.append(path + ".gz")
    }
    return written
  }

  /// The gzipped copies in `directory` (of the fingerprinted assets) that
  /// are not their file gzipped: a file changed after the last `generate`,
  /// whose old bytes nginx would send to every browser that takes gzip.
  package static func staleCompressedCopies(in directory: String) -> [String] {
    ["style.css", "app.js", "queue.js"].compactMap { name in
      let path = "\(directory)/\(name)"
      guard let copy = FileManager.default.contents(atPath: path + ".gz") else { return nil }
      let file = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
      let unpacked = Gzip.decompress([UInt8](copy), limit: max(file?.count ?? 0, 1))
      return unpacked == file ? nil : path + ".gz"
    }
  }
}

extension String {
  fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
  }
}
