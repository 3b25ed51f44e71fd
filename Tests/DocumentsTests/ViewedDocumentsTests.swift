import Documents
import Foundation
import Support
import Testing

/// `ViewedDocuments` over memory documents whose `identity(of:)` calls are
/// counted: what a request's view answers itself, and what it must leave
/// to the engine.
@Suite struct ViewedDocumentsTests {
  /// Memory documents that count the versions they are asked for.
  final class Counting: DocumentStore {
    let memory = MemoryDocuments()
    let asked = LockedValue(0)

    func identity(of path: String) throws(DocumentError) -> DocumentVersion? {
      asked.withLock { $0 += 1 }
      return try memory.identity(of: path)
    }
    func snapshot(of path: String) throws(DocumentError) -> DocumentSnapshot? {
      try memory.snapshot(of: path)
    }
    func write(_ bytes: Data, to path: String, durable: Bool) throws(DocumentError)
      -> DocumentVersion
    { try memory.write(bytes, to: path, durable: durable) }
    func replace(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError)
      -> DocumentVersion
    { try memory.replace(bytes, at: path, durable: durable) }
    func create(_ bytes: Data, at path: String, durable: Bool) throws(DocumentError) -> Bool {
      try memory.create(bytes, at: path, durable: durable)
    }
    func remove(_ path: String, durable: Bool) throws(DocumentError) {
      try memory.remove(path, durable: durable)
    }
    func prepareDirectory(_ directory: String, durable: Bool) throws(DocumentError) {
      try memory.prepareDirectory(directory, durable: durable)
    }
    func withLock<T>(_ lockPath: String, timeout: Duration, _ body: () throws -> T) throws -> T {
      try memory.withLock(lockPath, timeout: timeout, body)
    }
    func setAside(_ path: String, durable: Bool) throws(DocumentError) -> String {
      try memory.setAside(path, durable: durable)
    }
    func markActive(_ lockPath: String) {}
    func identity(ofDirectory directory: String) -> DocumentVersion? {
      memory.identity(ofDirectory: directory)
    }
    func directoryExists(_ directory: String) throws(DocumentError) -> Bool {
      try memory.directoryExists(directory)
    }
    func entries(ofDirectory directory: String) -> [String] {
      memory.entries(ofDirectory: directory)
    }
  }

  let directory = "/data/users/ab/abcd"
  var prefs: String { directory + "/Preferences.plist" }
  var devices: String { directory + "/Devices.plist" }

  /// A request's view of `directory` as it is now.
  func view(_ documents: any DocumentStore) -> DirectoryView {
    DirectoryView(directory: directory, version: documents.identity(ofDirectory: directory)!)
  }

  @Test func aDocumentSeenUnderTheSameDirectoryVersionIsNotAskedAgain() throws {
    let engine = Counting()
    let viewed = ViewedDocuments(engine, capacity: 10)
    let first = try viewed.write(Data("a".utf8), to: prefs, durable: false)
    let before = engine.asked.withLock { $0 }
    try DirectoryView.reading(view(viewed)) { () throws in
      #expect(try viewed.identity(of: prefs) == first)
      #expect(try viewed.identity(of: devices) == nil)
    }
    #expect(engine.asked.withLock { $0 } == before + 2)
    // The next request, the directory unchanged: answered from what was seen.
    try DirectoryView.reading(view(viewed)) { () throws in
      #expect(try viewed.identity(of: prefs) == first)
      #expect(try viewed.identity(of: devices) == nil)
    }
    #expect(engine.asked.withLock { $0 } == before + 2)
  }

  @Test func aChangeInTheDirectoryIsSeenAtTheNextView() throws {
    let engine = Counting()
    let viewed = ViewedDocuments(engine, capacity: 10)
    try viewed.write(Data("a".utf8), to: prefs, durable: false)
    try DirectoryView.reading(view(viewed)) { _ = try viewed.identity(of: devices) }
    // Another process (the engine itself) writes the devices file.
    let written = try engine.memory.write(Data("d".utf8), to: devices, durable: false)
    try DirectoryView.reading(view(viewed)) { () throws in
      #expect(try viewed.identity(of: devices) == written)
    }
  }

  @Test func aViewIsClosedByALockOrAWrite() throws {
    let engine = Counting()
    let viewed = ViewedDocuments(engine, capacity: 10)
    try viewed.write(Data("a".utf8), to: prefs, durable: false)
    try DirectoryView.reading(view(viewed)) { _ = try viewed.identity(of: prefs) }
    let before = engine.asked.withLock { $0 }
    try DirectoryView.reading(view(viewed)) { () throws in
      try viewed.withLock(directory + "/.lock") {
        _ = try viewed.identity(of: prefs)
      }
      // Under the lock and after it, the engine answers.
      let after = try viewed.replace(Data("b".utf8), at: prefs, durable: false)
      #expect(try viewed.identity(of: prefs) == after)
    }
    #expect(engine.asked.withLock { $0 } == before + 2)
  }

  @Test func onlyTheViewedDirectorysOwnDocumentsAreAnswered() throws {
    let engine = Counting()
    let viewed = ViewedDocuments(engine, capacity: 10)
    try viewed.write(Data("a".utf8), to: prefs, durable: false)
    let elsewhere = [
      "/data/users/ab/abcde/Preferences.plist", directory + "/sub/Preferences.plist",
      "/data/index/ab/Browsers.plist", directory,
    ]
    for _ in 0..<2 {
      try DirectoryView.reading(view(viewed)) { () throws in
        for path in elsewhere { _ = try viewed.identity(of: path) }
      }
    }
    #expect(engine.asked.withLock { $0 } == 2 * elsewhere.count)
    // And without a view, every question is the engine's.
    _ = try viewed.identity(of: prefs)
    _ = try viewed.identity(of: prefs)
    #expect(engine.asked.withLock { $0 } == 2 * elsewhere.count + 2)
  }

  @Test func theViewHoldsItsDirectorysDocumentsByPath() {
    let view = DirectoryView(
      directory: "/d/users/ab/k",
      version: DocumentVersion(
        place: 0, number: 1, size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0))
    #expect(view.holds("/d/users/ab/k/Checklists.plist"))
    #expect(!view.holds("/d/users/ab/k"))
    #expect(!view.holds("/d/users/ab/k/"))
    #expect(!view.holds("/d/users/ab/kk/Checklists.plist"))
    #expect(!view.holds("/d/users/ab/k/x/Checklists.plist"))
    #expect(!view.holds("/d/users/ab/j/Checklists.plist"))
  }
}
