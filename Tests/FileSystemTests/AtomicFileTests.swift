import FileSystem
import Foundation
import TestSupport
import Testing

@Suite struct AtomicFileTests {
  let temporary = TemporaryDirectory("atomic")
  var directory: String { temporary.path }

  @Test func writesThenReplacesWithoutLeavingTemporaries() throws {
    let path = directory + "/file.plist"
    try AtomicFile.write(Data("one".utf8), to: path)
    #expect(try AtomicFile.read(path) == Data("one".utf8))
    try AtomicFile.write(Data("two".utf8), to: path)
    #expect(try AtomicFile.read(path) == Data("two".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["file.plist"])
  }

  @Test(arguments: [
    ("/data/users/ab/key/Checklists.plist", "/data/users/ab/key", "Checklists.plist"),
    ("relative/file", "relative", "file"),
    ("file", ".", "file"),
    ("/file", "/", "file"),
    ("/dé/ü.plist", "/dé", "ü.plist"),
  ])
  func splitsAPathIntoItsDirectoryAndName(path: String, directory: String, name: String) {
    #expect(AtomicFile.split(path) == (directory, name))
  }

  @Test func readOfMissingFileIsNil() throws {
    #expect(try AtomicFile.read(directory + "/missing") == nil)
  }

  @Test func writeIntoMissingDirectoryThrowsAndLeavesNothing() {
    #expect(throws: FileError.self) {
      try AtomicFile.write(Data("x".utf8), to: directory + "/nope/file")
    }
  }

  @Test func lockSerialisesThreads() throws {
    let lockPath = directory + "/lock"
    let counterPath = directory + "/counter"
    try AtomicFile.write(Data("0".utf8), to: counterPath, durable: false)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<50 {
        try! FileLock.withLock(lockPath) {
          let value = Int(String(decoding: try AtomicFile.read(counterPath)!, as: UTF8.self))!
          try AtomicFile.write(Data(String(value + 1).utf8), to: counterPath, durable: false)
        }
      }
    }
    #expect(String(decoding: try AtomicFile.read(counterPath)!, as: UTF8.self) == "200")
  }

  private func inode(_ path: String) throws -> UInt64 {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
  }

  @Test func aReplacementReusesTheFileTheOneBeforeSetAside() throws {
    let path = directory + "/Checklists.plist"
    let spare = directory + "/.Checklists.plist.spare"
    try AtomicFile.replaceReusingSpare(Data("first version".utf8), at: path)
    let first = try inode(path)
    try AtomicFile.replaceReusingSpare(Data("second".utf8), at: path)
    #expect(try AtomicFile.read(path) == Data("second".utf8))
    #expect(try AtomicFile.read(spare) == Data("first version".utf8))
    #expect(try inode(spare) == first)
    try AtomicFile.replaceReusingSpare(Data("3".utf8), at: path)
    #expect(try AtomicFile.read(path) == Data("3".utf8))  // shorter: the rest cut off
    #expect(try inode(path) == first)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
        ".Checklists.plist.spare", "Checklists.plist",
      ])
  }

  /// A reader that opened the file before it was replaced keeps reading that
  /// version whole: the spare it now is gets reused only when no one has it open.
  @Test func aSpareSomeoneHasOpenIsNotRewritten() throws {
    let path = directory + "/Checklists.plist"
    try AtomicFile.replaceReusingSpare(Data("one".utf8), at: path)
    let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? reader.close() }
    let readersFile = try inode(path)
    try AtomicFile.replaceReusingSpare(Data("two".utf8), at: path)
    try AtomicFile.replaceReusingSpare(Data("three".utf8), at: path)
    #expect(try reader.readToEnd() == Data("one".utf8))
    #expect(try AtomicFile.read(path) == Data("three".utf8))
    #expect(try inode(path) != readersFile)
    try reader.close()
    try AtomicFile.replaceReusingSpare(Data("four".utf8), at: path)
    #expect(try AtomicFile.read(path) == Data("four".utf8))
    #expect(try AtomicFile.read(directory + "/.Checklists.plist.spare") == Data("three".utf8))
  }

  @Test func aSpareWithoutTheFileBecomesTheFile() throws {
    let path = directory + "/Checklists.plist"
    try AtomicFile.replaceReusingSpare(Data("one".utf8), at: path)
    try AtomicFile.replaceReusingSpare(Data("two".utf8), at: path)
    try FileManager.default.removeItem(atPath: path)  // e.g. set aside as corrupt
    try AtomicFile.replaceReusingSpare(Data("three".utf8), at: path)
    #expect(try AtomicFile.read(path) == Data("three".utf8))
  }

  @Test func aReplacementIntoAMissingDirectoryThrows() {
    #expect(throws: FileError.self) {
      try AtomicFile.replaceReusingSpare(Data("x".utf8), at: directory + "/nope/file")
    }
  }

  /// A snapshot made with hard links (`cp -al`) keeps its versions.
  @Test func aSpareWithAnotherNameIsNotRewritten() throws {
    let path = directory + "/Checklists.plist"
    try AtomicFile.replaceReusingSpare(Data("one".utf8), at: path)
    try FileManager.default.linkItem(atPath: path, toPath: directory + "/snapshot")
    try AtomicFile.replaceReusingSpare(Data("two".utf8), at: path)
    try AtomicFile.replaceReusingSpare(Data("three".utf8), at: path)
    #expect(try AtomicFile.read(directory + "/snapshot") == Data("one".utf8))
    #expect(try AtomicFile.read(path) == Data("three".utf8))
  }

  private func modified(_ path: String) throws -> Int64 {
    let identity = try #require(try FileIdentity.of(path))
    return identity.modifiedSeconds * 1_000_000_000 + identity.modifiedNanoseconds
  }

  /// Each version's time is after the one it replaces, even when that one
  /// claims a later time than the clock's (set back since): with the inode
  /// reused, the time is what tells versions of equal size apart.
  @Test(arguments: [true, false])
  func eachVersionIsStampedAfterTheOneItReplaces(reusingSpare: Bool) throws {
    let path = directory + "/Checklists.plist"
    func replace(_ text: String) throws {
      if reusingSpare {
        try AtomicFile.replaceReusingSpare(Data(text.utf8), at: path, durable: false)
      } else {
        try AtomicFile.write(Data(text.utf8), to: path, durable: false)
      }
    }
    try replace("one")
    try replace("two")
    let future = Date().addingTimeInterval(3_600)
    try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: path)
    var previous = try modified(path)
    for text in ["six", "ten", "six", "ten"] {
      try replace(text)
      let stamped = try modified(path)
      #expect(stamped > previous)
      #expect(stamped - previous < 1_000_000, "just after, not the clock's own time")
      previous = stamped
    }
  }
}
