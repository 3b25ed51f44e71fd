import Foundation
import Testing

@testable import Storage

@Suite struct AtomicFileTests {
  let directory: String = {
    let path = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

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
}
