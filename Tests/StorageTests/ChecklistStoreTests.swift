import ChecklistsModel
import FileSystem
import Foundation
import ServiceMetrics
import TestSupport
import Testing

@testable import Storage

@Suite struct ChecklistStoreTests {
  let visitorID = "0123456789abcdef0123456789abcdef"
  let temporary = TemporaryDirectory("checklists-store")
  var data: String { temporary.path }

  @Test func visitorDirectoryHashesTheID() {
    let visitor = VisitorDirectory(dataDirectory: "/data", visitorID: "abc")
    // SHA-256("abc")
    let key = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    #expect(visitor.key == key)
    #expect(visitor.path == "/data/users/ba/\(key)")
    #expect(visitor.checklistsPath == "/data/users/ba/\(key)/Checklists.plist")
    #expect(visitor.lockPath == "/data/users/ba/\(key)/.Checklists.lock")
    #expect(!visitor.path.contains("abc"))
  }

  @Test func loadNeverWritesAndFirstChangeCreatesPrivateDirectory() throws {
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    #expect(try store.load(visitor) == nil)
    #expect(!FileManager.default.fileExists(atPath: data + "/users"), "a load created nothing")

    let listID = try store.update(visitor, initial: storedOrFirstRun) { model in
      try model.addList(name: "Groceries", icon: .groceries)
    }
    for directory in [data + "/users", visitor.path] {
      let mode =
        try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(directory)")
    }
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: visitor.checklistsPath)[
        .posixPermissions] as? Int
    #expect(fileMode == 0o600)
    let loaded = try #require(try makeStore(data).load(visitor))
    #expect(loaded.lists.map(\.name) == ["Groceries", "List"])
    #expect(loaded.checklist(id: listID)?.icon == .groceries)
  }

  @Test func unchangedOrRefusedUpdateWritesNothing() throws {
    let store = makeStore(data)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try store.update(visitor, initial: storedOrEmpty) { _ in }
    #expect(!FileManager.default.fileExists(atPath: visitor.checklistsPath))

    try store.update(visitor, initial: storedOrFirstRun) { _ in }
    let identity = try FileIdentity.of(visitor.checklistsPath)
    #expect(identity != nil)
    #expect(throws: ChecklistsError.emptyText) {
      try store.update(visitor, initial: storedModel) { model in
        try model.addList(name: "kept?", icon: .none)
        try model.addItem(text: " ", toList: model.lists[0].id)
      }
    }
    try store.update(visitor, initial: storedModel) { model in _ = model.lists.count }
    #expect(try FileIdentity.of(visitor.checklistsPath) == identity, "nothing was written")
    #expect(try makeStore(data).load(visitor) == .firstRun())
  }

  @Test func corruptFileIsKeptAsideWithTypedError() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>version".utf8)
    try garbage.write(to: URL(fileURLWithPath: visitor.checklistsPath))

    let store = makeStore(data)
    let error = #expect(throws: StoreError.self, "a corrupt file must not load") {
      try store.load(visitor)
    }
    if let error {
      guard case .unreadable(let path, let keptAs) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path == visitor.checklistsPath)
      #expect(keptAs.hasPrefix(visitor.checklistsPath + ".corrupt-"), "\(keptAs)")
      #expect(FileManager.default.contents(atPath: keptAs) == garbage, "kept byte for byte")
      #expect(!error.message.isEmpty)
    }
    #expect(try store.load(visitor) == nil)
    try store.update(visitor, initial: storedOrFirstRun) { model in
      try model.addList(name: "Fresh", icon: .none)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: visitor.path)
    #expect(
      names.filter { $0.contains(".corrupt-") }.count == 1,
      "the corrupt copy is never overwritten")
  }

  @Test func corruptFileMetInsideUpdateIsNotOverwritten() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: visitor.checklistsPath))
    var called = false
    #expect {
      try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in called = true }
    } throws: { error in
      guard case .unreadable = error as? StoreError else { return false }
      return true
    }
    #expect(!called)
    #expect(!FileManager.default.fileExists(atPath: visitor.checklistsPath))
  }

  @Test func cacheIsInvalidatedWhenAnotherProcessWrites() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    let mine = makeStore(data)
    let theirs = makeStore(data)  // another backend process sharing the data directory
    try mine.update(visitor, initial: storedOrFirstRun) { _ in }
    #expect(try mine.load(visitor)?.lists.count == 1)
    #expect(mine.cachedCount == 1)

    try theirs.update(visitor, initial: storedModel) { try $0.addList(name: "Theirs", icon: .none) }
    #expect(try mine.load(visitor)?.lists.map(\.name) == ["List", "Theirs"])

    // Inside the lock, my update starts from their latest version too:
    // my write finds theirs (a conflict, counted) and is worked out again.
    try theirs.update(visitor, initial: storedModel) { try $0.addList(name: "Again", icon: .none) }
    let counters = ServiceCounters.shared
    let (conflicts, retries) = (counters.value(of: .storeConflict), counters.value(of: .storeRetry))
    try mine.update(visitor, initial: storedModel) { try $0.addList(name: "Mine", icon: .none) }
    #expect(counters.value(of: .storeConflict) > conflicts)
    #expect(counters.value(of: .storeRetry) > retries)
    #expect(try theirs.load(visitor)?.lists.map(\.name) == ["Again", "List", "Mine", "Theirs"])

    try FileManager.default.removeItem(atPath: visitor.checklistsPath)
    #expect(try mine.load(visitor) == nil)
  }

  @Test func cacheIsBounded() throws {
    let store = ChecklistStore(
      configuration: .init(dataDirectory: data, cacheCapacity: 3, durable: false),
      logger: .init(label: "test"))
    for n in 0..<10 {
      let visitor = VisitorDirectory(dataDirectory: data, visitorID: "visitor-\(n)")
      try store.update(visitor, initial: storedOrFirstRun) { _ in }
      #expect(try store.load(visitor) != nil)
    }
    #expect(store.cachedCount == 3)
  }

  @Test func binaryFormatRoundTrips() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data, format: .binary).update(visitor, initial: storedOrFirstRun) { model in
      try model.addItem(text: "Milk & <eggs>", toList: model.lists[0].id)
    }
    let bytes = try #require(FileManager.default.contents(atPath: visitor.checklistsPath))
    #expect(bytes.prefix(8) == Data("bplist00".utf8))
    #expect(try makeStore(data).load(visitor)?.lists[0].items.first?.text == "Milk & <eggs>")
  }

  @Test func newerVersionIsLeftInPlace() throws {
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    let newer = try PropertyListSerialization.data(
      fromPropertyList: [
        "version": DataModel.currentVersion + 1, "nextListID": 1, "nextItemID": 1,
        "lists": [Any](), "more": 1,
      ],
      format: .xml, options: 0)
    try newer.write(to: URL(fileURLWithPath: visitor.checklistsPath))
    let error = #expect(throws: StoreError.self) { try makeStore(data).load(visitor) }
    if let error, case .io = error {} else { Issue.record("\(String(describing: error))") }
    #expect(throws: (any Error).self) {
      try makeStore(data).update(visitor, initial: storedOrFirstRun) { _ in }
    }
    #expect(FileManager.default.contents(atPath: visitor.checklistsPath) == newer)
  }
}
