import FileSystem
import Foundation
import TestSupport
import Testing

@testable import checklists

@Suite struct DocumentMigrationTests {
  let source = TemporaryDirectory("migration-source")
  let target = TemporaryDirectory("migration-target")

  /// A data directory as the backend leaves it: documents, locks, a spare
  /// and an empty directory (a first write that failed).
  private func fillSource() throws {
    let files: [String: String] = [
      "secret": "0123456789abcdef0123456789abcdef",
      "users/ab/abcd/Checklists.plist": "<plist>lists</plist>",
      "users/ab/abcd/Preferences.plist": "<plist>prefs</plist>",
      "users/ab/abcd/Checklists.plist.corrupt-20261124T120000Z": "damaged",
      "users/ab/abcd/.Checklists.lock": "",
      "users/ab/abcd/.Checklists.plist.spare": "old version",
      "browsers/cd/cdef": "abcd\n",
    ]
    for (path, text) in files {
      let full = source.appending(path)
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
    try FileManager.default.createDirectory(
      atPath: source.appending("users/ef/efgh"), withIntermediateDirectories: true)
  }

  private func documents(under root: String) -> [String: Data] {
    var found: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: root)!
    while let relative = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      FileManager.default.fileExists(atPath: "\(root)/\(relative)", isDirectory: &isDirectory)
      guard !isDirectory.boolValue, !(relative as NSString).lastPathComponent.hasPrefix(".")
      else { continue }
      found[relative] = FileManager.default.contents(atPath: "\(root)/\(relative)")
    }
    return found
  }

  @Test func copiesEveryDocumentByteForByteAndSkipsBookkeeping() throws {
    try fillSource()
    let migration = DocumentMigration(
      from: LocalDocuments(), root: source.path, to: LocalDocuments(), root: target.path)
    let report = try migration.run()
    #expect(report.copied == 5)
    #expect(documents(under: target.path) == documents(under: source.path))
    #expect(documents(under: target.path).count == 5)
    #expect(
      !FileManager.default.fileExists(
        atPath: target.appending("users/ab/abcd/.Checklists.plist.spare")))
  }

  @Test func runningAgainCopiesNothingAndResumesAfterALoss() throws {
    try fillSource()
    let migration = DocumentMigration(
      from: LocalDocuments(), root: source.path, to: LocalDocuments(), root: target.path)
    _ = try migration.run()
    #expect(try migration.run().copied == 0)
    #expect(try migration.run().unchanged == 5)
    try FileManager.default.removeItem(atPath: target.appending("users/ab/abcd/Preferences.plist"))
    let resumed = try migration.run()
    #expect(resumed.copied == 1 && resumed.unchanged == 4)
    #expect(documents(under: target.path) == documents(under: source.path))
  }
}
