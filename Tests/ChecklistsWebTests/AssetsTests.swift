import Foundation
import Testing

@testable import ChecklistsWeb

/// Every address nginx lets a browser keep for a year carries the version
/// of its file, the home screen icon included once it is drawn.
@Suite struct AssetsTests {
  /// A public directory with the three fingerprinted files, and the touch
  /// icon when `withIcon`.
  static func publicDirectory(withIcon: Bool) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("assets-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: "\(directory)/app-icons", withIntermediateDirectories: true)
    for name in ["style.css", "app.js", "queue.js"] {
      try Data("/* \(name) */".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
    }
    if withIcon {
      try Data([0x89, 0x50, 0x4E, 0x47]).write(
        to: URL(fileURLWithPath: "\(directory)/\(AppIcons.touchIcon.file)"))
    }
    return directory
  }

  @Test func theTouchIconIsNamedByItsVersionOnceDrawn() throws {
    let directory = try Self.publicDirectory(withIcon: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let assets = try Assets(publicDirectory: directory)
    #expect(
      assets.touchIcon.wholeMatch(of: /\/app-icons\/apple-touch-icon\.png\?v=[0-9a-f]{12}/) != nil,
      "\(assets.touchIcon)")
    #expect(assets.queueScript.wholeMatch(of: /\/queue\.js\?v=[0-9a-f]{12}/) != nil)
  }

  @Test func anUndrawnTouchIconKeepsItsPlainAddress() throws {
    let directory = try Self.publicDirectory(withIcon: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(try Assets(publicDirectory: directory).touchIcon == "/app-icons/apple-touch-icon.png")
  }
}
