import FileSystem
import Foundation
import SystemPackage
import TestSupport
import Testing

/// The name operations the layers above use instead of calling C.
@Suite struct FileNamesTests {
  let directory = TemporaryDirectory("file-names")

  @Test func aLinkIsMadeOnlyWhenTheNameIsFree() throws {
    let first = directory.appending("first")
    let second = directory.appending("second")
    let name = directory.appending("name")
    try AtomicFile.write(Data("1".utf8), to: first, durable: false)
    try AtomicFile.write(Data("2".utf8), to: second, durable: false)
    #expect(try FileNames.link(first, as: name))
    #expect(try FileNames.link(second, as: name) == false)
    #expect(try AtomicFile.read(name) == Data("1".utf8))
    #expect(throws: FileError.self) {
      try FileNames.link(directory.appending("missing"), as: directory.appending("other"))
    }
  }

  @Test func removingAMissingNameIsNoError() throws {
    let path = directory.appending("file")
    try AtomicFile.write(Data("x".utf8), to: path, durable: false)
    try FileNames.remove(path)
    #expect(try AtomicFile.read(path) == nil)
    try FileNames.remove(path)
  }

  @Test func aRenameMovesTheNameOrThrows() throws {
    let path = directory.appending("file")
    try AtomicFile.write(Data("x".utf8), to: path, durable: false)
    try FileNames.rename(path, to: directory.appending("moved"))
    #expect(try AtomicFile.read(directory.appending("moved")) == Data("x".utf8))
    let error = #expect(throws: FileError.self) {
      try FileNames.rename(path, to: directory.appending("again"))
    }
    #expect(error?.operation == "rename")
    #expect(error?.path == path)
    #expect(error?.errno == .noSuchFileOrDirectory)
  }

  @Test func markingATimeChangesOnlyAnExistingFile() throws {
    let path = directory.appending(".lock")
    try AtomicFile.write(Data(), to: path, durable: false)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -30 * 86_400)], ofItemAtPath: path)
    let before = try #require(try FileStatus.of(path))
    #expect(FileNames.markModifiedNow(path))
    let after = try #require(try FileStatus.of(path))
    #expect(after.modifiedSeconds > before.modifiedSeconds + 29 * 86_400)
    #expect(after.inode == before.inode && after.size == 0, "metadata only")
    #expect(FileNames.markModifiedNow(directory.appending("missing")) == false)
    #expect(try FileStatus.of(directory.appending("missing")) == nil)
    #expect(try FileStatus.of(directory.path)?.isDirectory == true)
  }
}
