import FileSystem
import Foundation

/// The installed app's icons, drawn from the product's own icon at
/// `generate` (`rsvg-convert`, librsvg2-bin), and the Web App Manifest
/// that names them.
///
/// Two drawings: `favicon.svg` (the rounded square the tab shows) for the
/// `any` icons, and `app-icon-maskable.svg`, the same check mark on a
/// square with no corners, for the `maskable` icons (the launcher cuts its
/// own shape; the mark lies inside the middle 80% every shape keeps) and
/// the iOS home screen's, which rounds the corners itself and would show
/// transparent ones black.
struct AppIcons {
  /// One PNG to draw: its file under `Public/`, its source, its size and
  /// its manifest purpose (nil: not listed in the manifest, as iOS's).
  struct Icon: Equatable {
    var file: String
    var source: String
    var size: Int
    var purpose: String?
  }

  /// What Chromium asks for (192 and 512, `any` and `maskable`) and iOS's
  /// `apple-touch-icon` (180).
  static let icons: [Icon] = [
    Icon(file: "app-icons/icon-192.png", source: "favicon.svg", size: 192, purpose: "any"),
    Icon(file: "app-icons/icon-512.png", source: "favicon.svg", size: 512, purpose: "any"),
    Icon(
      file: "app-icons/maskable-192.png", source: "app-icon-maskable.svg", size: 192,
      purpose: "maskable"),
    Icon(
      file: "app-icons/maskable-512.png", source: "app-icon-maskable.svg", size: 512,
      purpose: "maskable"),
    touchIcon,
  ]

  /// iOS's home screen icon, which the layout links by its version.
  static let touchIcon = Icon(
    file: "app-icons/apple-touch-icon.png", source: "app-icon-maskable.svg", size: 180,
    purpose: nil)

  static let manifestFile = "manifest.webmanifest"

  /// The theme colours of the site's header (`--surface` in `style.css`):
  /// the manifest takes one, the pages' `theme-color` meta tags both.
  static let lightTheme = "#ffffff"
  /// The background shown while the installed app starts (`--bg`).
  static let lightBackground = "#f4f4f1"

  let publicDirectory: String
  /// The program that draws an SVG into a PNG.
  var converter = "rsvg-convert"

  /// Draws every icon into `publicDirectory/app-icons/`, then writes the
  /// manifest, each icon named with its version (`?v=`, as the stylesheet
  /// is) so that nginx may let browsers keep them for a year. Returns the
  /// paths written.
  func write() throws -> [String] {
    try FileManager.default.createDirectory(
      atPath: "\(publicDirectory)/app-icons", withIntermediateDirectories: true)
    var written: [String] = []
    for icon in Self.icons {
      let path = "\(publicDirectory)/\(icon.file)"
      try draw(icon, to: path)
      written.append(path)
    }
    let manifest = "\(publicDirectory)/\(Self.manifestFile)"
    try AtomicFile.write(
      Array(try manifestJSON().utf8), to: manifest, durable: false, permissions: 0o644)
    return written + [manifest]
  }

  private func draw(_ icon: Icon, to path: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      converter, "--width", "\(icon.size)", "--height", "\(icon.size)",
      "--output", path, "\(publicDirectory)/\(icon.source)",
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw AppIconError(
        message:
          "\(converter) could not draw \(icon.file) (exit \(process.terminationStatus)); "
          + "is librsvg2-bin installed? (scripts/install-deps)")
    }
    // rsvg-convert creates the file with the umask's mode; nginx's workers read it.
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
  }

  /// The manifest: `start_url` is `/`, whose landing rule opens the list
  /// the browser had open (the service worker applies it offline too).
  func manifestJSON() throws -> String {
    var icons: [[String: String]] = []
    for icon in Self.icons {
      guard let purpose = icon.purpose else { continue }
      icons.append([
        "src": try Assets.versionedPath(icon.file, in: publicDirectory),
        "sizes": "\(icon.size)x\(icon.size)", "type": "image/png", "purpose": purpose,
      ])
    }
    let manifest: [String: Any] = [
      "id": "/", "name": "Checklists", "short_name": "Checklists",
      "description": "Your checklists, on every device.", "start_url": "/", "scope": "/",
      "display": "standalone", "theme_color": Self.lightTheme,
      "background_color": Self.lightBackground, "icons": icons,
    ]
    let data = try JSONSerialization.data(
      withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}

/// An icon that could not be drawn.
struct AppIconError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
