import ChecklistsModel
import Foundation
import XCTest

@testable import Storage

final class ChecklistStoreTests: XCTestCase {
  let visitorID = "0123456789abcdef0123456789abcdef"

  func testVisitorDirectoryHashesTheID() {
    let visitor = VisitorDirectory(dataDirectory: "/data", visitorID: "abc")
    // SHA-256("abc")
    let key = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    XCTAssertEqual(visitor.key, key)
    XCTAssertEqual(visitor.path, "/data/users/ba/\(key)")
    XCTAssertEqual(visitor.checklistsPath, "/data/users/ba/\(key)/Checklists.plist")
    XCTAssertEqual(visitor.preferencesPath, "/data/users/ba/\(key)/Preferences.plist")
    XCTAssertFalse(visitor.path.contains("abc"))
  }

  func testLoadNeverWritesAndFirstChangeCreatesPrivateDirectory() throws {
    let data = try makeDataDirectory(self)
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    XCTAssertNil(try store.load(visitor))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: data + "/users"), "a load created nothing")

    let listID = try store.update(visitor, initial: storedOrFirstRun) { model in
      try model.addList(name: "Groceries", icon: .groceries)
    }
    for directory in [data + "/users", visitor.path] {
      let mode =
        try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
      XCTAssertEqual(mode, 0o700, directory)
    }
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: visitor.checklistsPath)[
        .posixPermissions] as? Int
    XCTAssertEqual(fileMode, 0o600)
    let loaded = try XCTUnwrap(try makeStore(data).load(visitor))
    XCTAssertEqual(loaded.lists.map(\.name), ["Groceries", "List"])
    XCTAssertEqual(loaded.checklist(id: listID)?.icon, .groceries)
  }

  func testUnchangedOrRefusedUpdateWritesNothing() throws {
    let data = try makeDataDirectory(self)
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try store.update(visitor, initial: storedOrEmpty) { _ in }
    XCTAssertFalse(FileManager.default.fileExists(atPath: visitor.checklistsPath))

    try store.update(visitor, initial: storedOrFirstRun) { _ in }
    let identity = try FileIdentity.of(visitor.checklistsPath)
    XCTAssertNotNil(identity)
    XCTAssertThrowsError(
      try store.update(visitor, initial: storedModel) { model in
        try model.addList(name: "kept?", icon: .none)
        try model.addItem(text: " ", toList: model.lists[0].id)
      }
    ) { XCTAssertEqual($0 as? ChecklistsError, .emptyText) }
    try store.update(visitor, initial: storedModel) { model in _ = model.lists.count }
    XCTAssertEqual(try FileIdentity.of(visitor.checklistsPath), identity, "nothing was written")
    XCTAssertEqual(try makeStore(data).load(visitor), .firstRun())
  }

  func testCorruptFileIsKeptAsideWithTypedError() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>version".utf8)
    try garbage.write(to: URL(fileURLWithPath: visitor.checklistsPath))

    let store = makeStore(data)
    do {
      _ = try store.load(visitor)
      XCTFail("a corrupt file must not load")
    } catch let error {
      guard case .unreadable(let path, let keptAs) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, visitor.checklistsPath)
      XCTAssertTrue(keptAs.hasPrefix(visitor.checklistsPath + ".corrupt-"), keptAs)
      XCTAssertEqual(FileManager.default.contents(atPath: keptAs), garbage, "kept byte for byte")
      XCTAssertFalse(error.message.isEmpty)
    }
    XCTAssertNil(try store.load(visitor))
    try store.update(visitor, initial: storedOrFirstRun) { model in
      try model.addList(name: "Fresh", icon: .none)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: visitor.path)
    XCTAssertEqual(
      names.filter { $0.contains(".corrupt-") }.count, 1, "the corrupt copy is never overwritten")
  }

  func testCorruptFileMetInsideUpdateIsNotOverwritten() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: visitor.checklistsPath))
    var called = false
    XCTAssertThrowsError(
      try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in called = true }
    ) { error in
      guard case .unreadable = error as? StoreError else { return XCTFail("\(error)") }
    }
    XCTAssertFalse(called)
    XCTAssertFalse(FileManager.default.fileExists(atPath: visitor.checklistsPath))
  }

  func testCacheIsInvalidatedWhenAnotherProcessWrites() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    let mine = makeStore(data)
    let theirs = makeStore(data)  // another backend process sharing the data directory
    try mine.update(visitor, initial: storedOrFirstRun) { _ in }
    XCTAssertEqual(try mine.load(visitor)?.lists.count, 1)
    XCTAssertEqual(mine.cachedCount, 1)

    try theirs.update(visitor, initial: storedModel) { try $0.addList(name: "Theirs", icon: .none) }
    XCTAssertEqual(try mine.load(visitor)?.lists.map(\.name), ["List", "Theirs"])

    // Inside the lock, my update starts from their latest version too.
    try theirs.update(visitor, initial: storedModel) { try $0.addList(name: "Again", icon: .none) }
    try mine.update(visitor, initial: storedModel) { try $0.addList(name: "Mine", icon: .none) }
    XCTAssertEqual(
      try theirs.load(visitor)?.lists.map(\.name), ["Again", "List", "Mine", "Theirs"])

    try FileManager.default.removeItem(atPath: visitor.checklistsPath)
    XCTAssertNil(try mine.load(visitor))
  }

  func testCacheIsBounded() throws {
    let data = try makeDataDirectory(self)
    let store = ChecklistStore(
      configuration: .init(dataDirectory: data, cacheCapacity: 3, durable: false),
      logger: .init(label: "test"))
    for n in 0..<10 {
      let visitor = VisitorDirectory(dataDirectory: data, visitorID: "visitor-\(n)")
      try store.update(visitor, initial: storedOrFirstRun) { _ in }
      XCTAssertNotNil(try store.load(visitor))
    }
    XCTAssertEqual(store.cachedCount, 3)
  }

  func testLRUEvictsLeastRecentlyUsed() {
    var cache = LRUCache<String, Int>(capacity: 2)
    cache.setValue(1, forKey: "a")
    cache.setValue(2, forKey: "b")
    XCTAssertEqual(cache.value(forKey: "a"), 1)
    cache.setValue(3, forKey: "c")  // evicts b
    XCTAssertNil(cache.value(forKey: "b"))
    cache.removeValue(forKey: "a")
    cache.setValue(4, forKey: "a")
    cache.setValue(5, forKey: "d")
    XCTAssertEqual(cache.count, 2)
    XCTAssertEqual(cache.value(forKey: "a"), 4)
    XCTAssertEqual(cache.value(forKey: "d"), 5)
    XCTAssertNil(cache.value(forKey: "c"))
  }

  func testBinaryFormatRoundTrips() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data, format: .binary).update(visitor, initial: storedOrFirstRun) { model in
      try model.addItem(text: "Milk & <eggs>", toList: model.lists[0].id)
    }
    let bytes = try XCTUnwrap(FileManager.default.contents(atPath: visitor.checklistsPath))
    XCTAssertEqual(bytes.prefix(8), Data("bplist00".utf8))
    XCTAssertEqual(try makeStore(data).load(visitor)?.lists[0].items.first?.text, "Milk & <eggs>")
  }

  func testNewerVersionIsLeftInPlace() throws {
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    let newer = try PropertyListSerialization.data(
      fromPropertyList: [
        "version": 2, "nextListID": 1, "nextItemID": 1, "lists": [Any](), "more": 1,
      ],
      format: .xml, options: 0)
    try newer.write(to: URL(fileURLWithPath: visitor.checklistsPath))
    XCTAssertThrowsError(try makeStore(data).load(visitor)) { error in
      guard case .io = error as? StoreError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in })
    XCTAssertEqual(FileManager.default.contents(atPath: visitor.checklistsPath), newer)
  }
}
